import { Context, type Effect } from "effect"
import type { OutboxStorageError, OutboxWriteError } from "./outbox-errors.ts"
import type { OutboxItem } from "./outbox.ts"
import type { Outcome } from "../domain/outcome.ts"

/** Whether a delivery's failure is the outbox's (read or write): the scheduler decides what then (scheduler.ts). */
export const isStorageError = (error: { readonly _tag: string }): error is OutboxStorageError =>
  error._tag === "OutboxReadError" || error._tag === "OutboxWriteError"

/** The rate slot the scheduler granted to one request of a delivery. The scheduler takes it and settles it. */
export interface Slot {
  /** Where the item was recorded in doubt before this slot (see `markBeforeSlot`); undefined when it was not. */
  readonly markedFor: string | undefined
  /**
   * Reports that the request leaves now, after whatever had to be on disk first. A slow disk can
   * hold the work between the grant and the send; the next grant is spaced from the real send.
   */
  readonly leaving: Effect.Effect<void>
}

/**
 * What one request in a granted slot came to: the attempt's outcome, or a further request (after
 * a look-up or a read-back) that needs a slot of its own. Between the two slots the scheduler
 * runs `mark`, the next request's in-doubt mark, so that its fsync is outside any slot.
 */
export type Step =
  | { readonly _tag: "Settled"; readonly outcome: Outcome }
  | {
    readonly _tag: "NextRequest"
    readonly mark: Effect.Effect<string | undefined, OutboxStorageError>
    readonly send: (slot: Slot) => Effect.Effect<Step, OutboxStorageError>
  }

export const Step = {
  settled: (outcome: Outcome): Step => ({ _tag: "Settled", outcome }),
  nextRequest: (
    mark: Effect.Effect<string | undefined, OutboxStorageError>,
    send: (slot: Slot) => Effect.Effect<Step, OutboxStorageError>
  ): Step => ({ _tag: "NextRequest", mark, send })
}

/**
 * Sends an outbox item to the service and says what became of it. Every service error is an
 * Outcome; only the outbox's own failures fail. The scheduler owns pacing, the rate slots and
 * retries; the deliverer owns the mapping from item kinds to service calls.
 */
export class Deliverer extends Context.Service<Deliverer, {
  /**
   * Called before the item waits for its rate slot: records it as in doubt (a durable write)
   * when where it goes is already known, and returns that destination. Written inside the slot,
   * a slow fsync would delay the send and, since the next slot is spaced from the real send,
   * every slot after it — a click behind it included. Undefined when nothing was marked.
   */
  markBeforeSlot(item: OutboxItem): Effect.Effect<string | undefined, OutboxWriteError>
  /** The delivery's first request, in the slot the scheduler granted. */
  deliver(item: OutboxItem, slot: Slot): Effect.Effect<Step, OutboxStorageError>
  /** A cheap authenticated call that proves the token works again after a 401. */
  readonly probe: Effect.Effect<boolean>
}>()("scorebridge/delivery/Deliverer") {}
