import type { Effect } from "effect"
import type { Outcome } from "../domain/outcome.ts"
import type { Successes } from "./back-off.ts"
import type { Deliverer } from "./deliverer.ts"
import type { OutboxHealth, OutboxItem, OutboxItems } from "./outbox.ts"
import type { RateBudget } from "./rate-budget.ts"
import type { KnownEvent } from "../events/active-events.ts"

/** What the scheduler uses of the rest of the daemon: the seams its unit tests stand in for. */
export interface SchedulerPorts {
  /** The items it moves, and whether the disk has failed (then nothing more is delivered). */
  readonly outbox:
    & Pick<
      OutboxItems["Service"],
      | "get" | "lanes" | "scoreHeads" | "pending" | "onDisk" | "unmarkSending" | "whenAppended"
      | "markDelivered" | "markWarning" | "markDead" | "markMissed" | "reschedule"
    >
    & Pick<OutboxHealth["Service"], "diskFailure">
  readonly budget: Pick<RateBudget["Service"], "acquire" | "sending" | "finished" | "succeeded" | "rateLimited" | "suspend" | "resume">
  readonly deliverer: Deliverer["Service"]
  readonly successes: Successes
  /** What the bridge knows of the place's live event (ActiveEvents): its entries are the live lane's. */
  readonly liveEvent: (place: string) => Effect.Effect<KnownEvent | undefined>
  /** An item's attempt has an outcome (for the status page and the demo). */
  readonly settled: (event: { readonly place: string; readonly itemId: number; readonly kind: OutboxItem["kind"]; readonly outcome: Outcome }) => Effect.Effect<void>
}
