import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Outbox } from "../../src/delivery/outbox.ts"
import { useOutbox } from "../support/whole-outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { Scheduler } from "../../src/delivery/scheduler.ts"
import { notifySettings, runWatchdog, schedulerStuckAfterMs, SystemdNotify, type WatchedDaemon } from "../../src/daemon/systemd-notify.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { scorePayload } from "../support/outbox-payloads.ts"

describe("notifySettings", () => {
  it("is off without NOTIFY_SOCKET, and pings at half of WATCHDOG_USEC only for the PID it names", () => {
    assert.isUndefined(notifySettings({}, 42))
    assert.deepStrictEqual(notifySettings({ NOTIFY_SOCKET: "/run/s" }, 42), { socket: "/run/s", watchdogPingMs: undefined })
    assert.deepStrictEqual(notifySettings({ NOTIFY_SOCKET: "/run/s", WATCHDOG_USEC: "30000000" }, 42), { socket: "/run/s", watchdogPingMs: 15_000 })
    assert.deepStrictEqual(notifySettings({ NOTIFY_SOCKET: "/run/s", WATCHDOG_USEC: "30000000", WATCHDOG_PID: "42" }, 42), { socket: "/run/s", watchdogPingMs: 15_000 })
    assert.deepStrictEqual(notifySettings({ NOTIFY_SOCKET: "/run/s", WATCHDOG_USEC: "30000000", WATCHDOG_PID: "7" }, 42), { socket: "/run/s", watchdogPingMs: undefined })
  })
})

describe("runWatchdog", () => {
  it.effect("pings every half interval while starting and while the scheduler goes round, and stops once it is stuck", () => {
    const sent: Array<Readonly<Record<string, string>>> = []
    let lastLoopAt = 0
    const notify = Layer.succeed(SystemdNotify, SystemdNotify.of({
      settings: { socket: "/unused", watchdogPingMs: 1_000 },
      send: (fields) => Effect.sync(() => void sent.push(fields))
    }))
    const scheduler = Layer.succeed(Scheduler, Scheduler.of({
      snapshot: Effect.sync(() => ({ inFlight: {}, lastLoopAt }))
    }))
    const daemon = Layer.mergeAll(
      scheduler,
      Outbox.layer({ stateDirectory: tempDir("watchdog") }),
      RateBudget.layer({ requestsPerSecond: 1 })
    )
    const pings = () => sent.filter((f) => f["WATCHDOG"] === "1").length
    let running: WatchedDaemon | undefined
    return Effect.gen(function*() {
      yield* Effect.forkScoped(runWatchdog(() => running))
      // Still starting (no generation yet): plain pings.
      yield* TestClock.adjust(2_000)
      assert.deepStrictEqual(sent, [{ WATCHDOG: "1" }, { WATCHDOG: "1" }])

      const context = yield* Layer.build(daemon)
      yield* useOutbox((o) => o.append({ place: "court-1", kind: "score", payload: scorePayload(0), createdAt: 0 })).pipe(Effect.provideContext(context))
      running = { places: 2, context }
      lastLoopAt = yield* Clock.currentTimeMillis
      yield* TestClock.adjust(1_000)
      assert.deepStrictEqual(sent.at(-1), { WATCHDOG: "1", STATUS: "running: 2 places, 1 pending, 0 dead, 0 sent last minute" })
      yield* TestClock.adjust(5_000)
      assert.strictEqual(pings(), 8)

      // The scheduler stops going round: pings go on until it has been silent too long, then stop.
      yield* TestClock.adjust(schedulerStuckAfterMs + 5_000)
      const whenStuck = pings()
      yield* TestClock.adjust(10_000)
      assert.strictEqual(pings(), whenStuck)
      assert.isAtMost(whenStuck, 8 + schedulerStuckAfterMs / 1_000)

      // It comes back: so do the pings.
      lastLoopAt = yield* Clock.currentTimeMillis
      yield* TestClock.adjust(1_000)
      assert.isAbove(pings(), whenStuck)
    }).pipe(Effect.provide(notify))
  })
})
