import { Context, type Effect } from "effect"
import type { OutboxItem } from "./outbox.ts"
import type { Outcome } from "./outcome.ts"

/**
 * Sends one outbox item to the service and says what became of it. Never
 * fails: every service error is an Outcome. The scheduler owns pacing and
 * retries; the deliverer owns the mapping from item kinds to service calls.
 */
export class Deliverer extends Context.Service<Deliverer, {
  deliver(item: OutboxItem): Effect.Effect<Outcome>
  /** A cheap authenticated call that proves the token works again after a 401. */
  readonly probe: Effect.Effect<boolean>
}>()("scorebridge/delivery/Deliverer") {}
