import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { OutboxItems } from "../../src/delivery/outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import type { LinkState } from "../../src/domain/received.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import { makeStatusMetrics } from "../../src/status/status-metrics.ts"
import { statusModelLayer } from "./status-model-layer.ts"
import { writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A court after a weekend offline, as its card shows it: the real outbox holding its past events'
 * entries (written by the test support), the live event named by the service, the real rate
 * budget on virtual time. The past backlog is counted and timed, and it does not make the court
 * "delivery stuck": it drains behind the live scores, which are current.
 */
const options: StatusOptions = {
  places: [{ key: "court-9", sport: "basketball", buttonSources: [] }],
  buttons: [],
  mqtt: false,
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 60_000 }
}

describe("status: a past events' backlog on a court's card", () => {
  it.effect("counts the past entries and their events, says when they will be through at the current pace, and keeps the court LIVE", () => {
    const stateDirectory = tempDir("status-past")
    const now = Date.now()
    writeBacklogOutbox({
      stateDirectory,
      places: [{ key: "court-9", pastEventKeys: ["sat", "sun"] }],
      pendingPerPlace: 40,
      from: now - 3 * 86_400_000,
      to: now - 86_400_000
    })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* (yield* ActiveEvents).learn("court-9", "mon")
      yield* (yield* OutboxItems).append({ place: "court-9", kind: "score", payload: { timeStamp: now, left: 2, right: 0, period: 1 }, eventKey: "mon", createdAt: now })
      const status = yield* BridgeStatus
      const before = (yield* status.snapshot).places[0]!
      assert.deepStrictEqual(before.queue.pastEvents, { entries: 40, events: 2, throughAt: null })
      assert.strictEqual(before.queue.score, 41)
      // Three days old, yet not "delivery stuck": the live entry is the court's oldest that counts.
      assert.deepStrictEqual(before.reasons, [])
      assert.isTrue(before.live)
      const metrics = makeStatusMetrics({ followsClips: false })
      const quiet = yield* metrics.render(yield* status.snapshot)
      assert.match(quiet, /^scorebridge_outbox_past_event_entries\{place="court-9"\} 40$/m)
      // No pace yet: no time left is claimed.
      assert.notMatch(quiet, /scorebridge_outbox_past_event_seconds_left\{/)

      // Four past entries granted a slot in the last minute: 40 take ten minutes at that pace.
      const budget = yield* RateBudget
      const grants = yield* Effect.forkChild(Effect.forEach([1, 2, 3, 4], () => budget.acquire("backlog"), { discard: true }))
      yield* TestClock.adjust("3 seconds")
      yield* Fiber.join(grants)
      const at = yield* Clock.currentTimeMillis
      const draining = yield* status.snapshot
      assert.deepStrictEqual(draining.places[0]!.queue.pastEvents, { entries: 40, events: 2, throughAt: at + 600_000 })
      assert.match(yield* metrics.render(draining), /^scorebridge_outbox_past_event_seconds_left\{place="court-9"\} 600$/m)
    }).pipe(Effect.provide(Effect.map(SubscriptionRef.make<LinkState>({ _tag: "connecting", target: "none" }), (broker) =>
      statusModelLayer(broker, stateDirectory, options)).pipe(Layer.unwrap)))
  })
})
