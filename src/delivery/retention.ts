import { Clock, Effect, Layer, Schedule } from "effect"
import { OutboxItems } from "./outbox.ts"

/**
 * Delivered entries stay in the outbox for inspection for a while, then go.
 * Pending, dead and missed items are never pruned: they need a person's eye.
 */
export const retentionLayer = (deliveredHours: number) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const outbox = yield* OutboxItems
    const prune = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const removed = yield* outbox.prune(now - deliveredHours * 3_600_000)
      if (removed > 0) yield* Effect.logDebug(`pruned ${removed} delivered items older than ${deliveredHours} h`)
    }).pipe(Effect.catch((e) => Effect.logWarning(`outbox pruning failed: ${String(e)}`)))
    yield* Effect.forkScoped(Effect.repeat(prune, Schedule.spaced("1 hour")))
  }))
