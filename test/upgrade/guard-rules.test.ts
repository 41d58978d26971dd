import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { DaemonObservation, GuardSettings, Observation, UnitObservation } from "../../src/upgrade/guard-rules.ts"
import { watchUpgrade } from "../../src/upgrade/guard-watch.ts"

/**
 * The upgrade guard's rules on virtual time: the real watch loop (guard-watch.ts) polls a scripted
 * new version every 5 s; each failure must come at its moment and not one poll before, an outage of
 * the venue's internet must never be blamed on the version, and a clean watch passes when it ends.
 */
const t0 = Date.UTC(2026, 10, 26, 14, 0, 0)
const s = 1000
const min = 60 * s
const pollMs = 5 * s
const settings: GuardSettings = { watchMs: 15 * min, maxRestarts: 3, deliverWithinMs: 10 * min, readyWithinMs: 3 * min }

const running: UnitObservation = { activeState: "active", subState: "running", restarts: 0 }
const idle: DaemonObservation = { pending: 0, lastDeliveredAt: null, heldBack: null }

/** The new version as seen `ms` after the watch began. */
type Script = (ms: number) => Omit<Observation, "at">

const fine: Script = () => ({ unit: running, daemon: idle, service: "answering" })

const watch = (script: Script) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(t0)
    const lines: Array<string> = []
    const look = Effect.map(Clock.currentTimeMillis, (now) => script(now - t0))
    const fiber = yield* Effect.forkChild(watchUpgrade({ settings, pollMs, say: (line) => Effect.sync(() => void lines.push(line)) }, look))
    /** The verdict once the clock reads t0 + ms, or undefined while still watching. */
    const by = (ms: number) =>
      Effect.gen(function*() {
        yield* TestClock.setTime(t0 + ms)
        yield* Effect.yieldNow
        const exit = fiber.pollUnsafe()
        return exit === undefined ? undefined : yield* exit
      })
    return { by, lines, fiber }
  })

/** The verdict comes at `ms` and not one poll before. */
const comesAt = (script: Script, ms: number) =>
  Effect.gen(function*() {
    const { by, lines, fiber } = yield* watch(script)
    assert.isUndefined(yield* by(ms - pollMs), `no verdict yet at ${(ms - pollMs) / s} s`)
    const verdict = yield* by(ms)
    assert.isDefined(verdict, `a verdict at ${ms / s} s`)
    yield* Fiber.interrupt(fiber)
    return { verdict: verdict!, lines }
  })

describe("the upgrade guard's rules", () => {
  it.effect("a clean watch passes when watchMinutes are over, not before", () =>
    Effect.gen(function*() {
      const { verdict, lines } = yield* comesAt(fine, 15 * min)
      assert.deepStrictEqual(verdict, { _tag: "Passed", note: null })
      assert.deepStrictEqual(lines, ["upgrade guard: READY; 0 restarts; nothing pending; service answering"])
    }))

  it.effect("never READY: fails three minutes after the upgrade", () =>
    Effect.gen(function*() {
      const { verdict } = yield* comesAt(() => ({ unit: { activeState: "activating", subState: "start", restarts: 0 }, daemon: null, service: "answering" }), 3 * min)
      assert.strictEqual(verdict._tag, "Failed")
      if (verdict._tag !== "Failed") return
      assert.strictEqual(verdict.failure.kind, "never_ready")
      assert.include(verdict.failure.text, "never READY within 3 min")
      assert.include(verdict.failure.text, "activating/start")
    }))

  it.effect("a restart loop: fails at the restart that makes more than maxRestarts", () =>
    Effect.gen(function*() {
      // systemd restarts it every 30 s: the 4th restart is seen at 2:00.
      const { verdict } = yield* comesAt((ms) => ({ unit: { ...running, restarts: Math.floor(ms / (30 * s)) }, daemon: idle, service: "answering" }), 2 * min)
      assert.deepStrictEqual(verdict, { _tag: "Failed", failure: { kind: "restart_loop", text: "restarted 4 times since the upgrade (more than 3): a restart loop" } })
    }))

  it.effect("restarts by hand reset NRestarts; the automatic ones after still count", () =>
    Effect.gen(function*() {
      // 2 restarts, someone restarts it by hand at 1:00 (NRestarts back to 0), then 2 more: 4.
      const restarts = (ms: number) => (ms < 1 * min ? Math.min(2, Math.floor(ms / (20 * s))) : Math.floor((ms - 1 * min) / (20 * s)))
      const { verdict } = yield* comesAt((ms) => ({ unit: { ...running, restarts: restarts(ms) }, daemon: idle, service: "answering" }), 1 * min + 40 * s)
      assert.strictEqual(verdict._tag === "Failed" ? verdict.failure.kind : verdict._tag, "restart_loop")
    }))

  it.effect("down after READY (failed, watchdog) for three minutes fails; stopped by hand does not", () =>
    Effect.gen(function*() {
      const failedAt = 5 * min
      const { verdict } = yield* comesAt((ms) => ({
        unit: ms < failedAt ? running : { activeState: "failed", subState: "failed", restarts: 0 },
        daemon: ms < failedAt ? idle : null,
        service: "answering"
      }), failedAt + 3 * min)
      assert.strictEqual(verdict._tag === "Failed" ? verdict.failure.text : "", "not running since 14:05Z, over 3 min (systemd says failed/failed)")

      const stopped = yield* comesAt((ms) => ({
        unit: ms < failedAt ? running : { activeState: "inactive", subState: "dead", restarts: 0 },
        daemon: ms < failedAt ? idle : null,
        service: "answering"
      }), 15 * min)
      assert.deepStrictEqual(stopped.verdict, { _tag: "Passed", note: null })
    }))

  it.effect("items pending, the service answering, nothing delivered: fails deliverWithinMinutes after the last delivery", () =>
    Effect.gen(function*() {
      // Entries arrive from 1:00 on and none leaves; the last look with nothing pending was 0:55.
      const { verdict, lines } = yield* comesAt((ms) => ({
        unit: running,
        daemon: { pending: ms < 1 * min ? 0 : 5, lastDeliveredAt: t0 - 30 * s, heldBack: null },
        service: "answering"
      }), 55 * s + 10 * min)
      assert.deepStrictEqual(verdict, {
        _tag: "Failed",
        failure: { kind: "not_delivering", text: "5 items pending and nothing delivered for 10 min while the service answers" }
      })
      assert.include(lines.join("\n"), "items pending, nothing delivered since 14:00Z")
    }))

  it.effect("deliveries that keep happening under a steady backlog are not a stall", () =>
    Effect.gen(function*() {
      const { verdict } = yield* comesAt((ms) => ({
        unit: running,
        // As many come as leave: the count stays, the last delivery moves on each minute.
        daemon: { pending: 5, lastDeliveredAt: t0 + Math.floor(ms / min) * min, heldBack: null },
        service: "answering"
      }), 15 * min)
      assert.deepStrictEqual(verdict, { _tag: "Passed", note: null })
    }))

  it.effect("an outage of the venue's internet is not blamed: the watch ends in it and passes with a note", () =>
    Effect.gen(function*() {
      const { verdict, lines } = yield* comesAt((ms) => ({
        unit: running,
        daemon: { pending: ms < 1 * min ? 0 : 12, lastDeliveredAt: null, heldBack: null },
        service: ms < 1 * min ? "answering" : "unreachable"
      }), 15 * min)
      assert.strictEqual(verdict._tag, "Passed")
      if (verdict._tag !== "Passed") return
      assert.include(verdict.note ?? "", "unreachable (since 14:01Z)")
      assert.include(lines.join("\n"), "service not answering since 14:01Z")
    }))

  it.effect("the service answering errors (5xx) is its own trouble, not the version's", () =>
    Effect.gen(function*() {
      const { verdict } = yield* comesAt(() => ({ unit: running, daemon: { pending: 3, lastDeliveredAt: null, heldBack: null }, service: "failing" }), 15 * min)
      assert.match(verdict._tag === "Passed" ? verdict.note ?? "" : verdict._tag, /^the watch ended while the service was answering errors \(since 14:00Z\)/u)
    }))

  it.effect("an outage pauses the count: the stall is counted from when the service answers again", () =>
    Effect.gen(function*() {
      // Unreachable from 1:00 to 3:00 (last unreachable look 2:55), nothing delivered after either.
      const { verdict } = yield* comesAt((ms) => ({
        unit: running,
        daemon: { pending: 4, lastDeliveredAt: null, heldBack: null },
        service: ms >= 1 * min && ms < 3 * min ? "unreachable" : "answering"
      }), 2 * min + 55 * s + 10 * min)
      assert.strictEqual(verdict._tag === "Failed" ? verdict.failure.kind : verdict._tag, "not_delivering")
    }))

  it.effect("a rejected token (401) holds delivery back: not the version's doing", () =>
    Effect.gen(function*() {
      const { verdict } = yield* comesAt(() => ({
        unit: running,
        daemon: { pending: 7, lastDeliveredAt: null, heldBack: "token rejected (401)" },
        service: "answering"
      }), 15 * min)
      assert.strictEqual(verdict._tag === "Passed" ? verdict.note : verdict._tag, "the watch ended while the service held delivery back (token rejected (401)): delivery could not be judged")
    }))

  it.effect("without systemd, READY is the daemon answering", () =>
    Effect.gen(function*() {
      const { verdict } = yield* comesAt(() => ({ unit: null, daemon: null, service: "answering" }), 3 * min)
      assert.strictEqual(verdict._tag === "Failed" ? verdict.failure.text : verdict._tag, "never READY within 3 min of the upgrade (its status page does not answer)")
      const ok = yield* comesAt(() => ({ unit: null, daemon: idle, service: "answering" }), 15 * min)
      assert.strictEqual(ok.verdict._tag, "Passed")
    }))

  it.effect("a watch shorter than the READY allowance still fails a version that never got READY", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(t0)
      const short = { ...settings, watchMs: 30 * s }
      const fiber = yield* Effect.forkChild(watchUpgrade({ settings: short, pollMs, say: () => Effect.void }, Effect.succeed({ unit: null, daemon: null, service: "answering" as const })))
      yield* TestClock.setTime(t0 + 30 * s)
      const verdict = yield* Fiber.join(fiber)
      assert.strictEqual(verdict._tag === "Failed" ? verdict.failure.text : verdict._tag, "never READY within 30 s of the upgrade (its status page does not answer)")
    }))
})
