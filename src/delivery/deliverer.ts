import { Context, type Effect } from "effect"
import type { OutboxItem } from "./outbox.ts"
import type { Outcome } from "../domain/outcome.ts"

/**
 * Sends one outbox item to the service and says what became of it. Never
 * fails: every service error is an Outcome. The scheduler owns pacing and
 * retries; the deliverer owns the mapping from item kinds to service calls.
 */
export class Deliverer extends Context.Service<Deliverer, {
  /**
   * Called before the item waits for its rate slot: records it as in doubt (a durable write)
   * when where it goes is already known, and returns that destination. Written inside the slot,
   * a slow fsync would delay the send and, since the next slot is spaced from the real send,
   * every slot after it — a click behind it included. Undefined when nothing was marked.
   */
  markBeforeSlot(item: OutboxItem): Effect.Effect<string | undefined>
  /** `markedFor`: what `markBeforeSlot` returned for this attempt. */
  deliver(item: OutboxItem, markedFor?: string): Effect.Effect<Outcome>
  /** A cheap authenticated call that proves the token works again after a 401. */
  readonly probe: Effect.Effect<boolean>
}>()("scorebridge/delivery/Deliverer") {}
