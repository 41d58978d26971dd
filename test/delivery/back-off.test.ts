import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { makeBackOff, outageAfterMs } from "../../src/delivery/back-off.ts"
import type { OutboxItem } from "../../src/delivery/outbox.ts"
import { makeSuccessWatch } from "../../src/service/success-watch.ts"
import { clickPayload, scorePayload } from "../support/outbox-payloads.ts"

/**
 * The back-off's rule on virtual time: what ends an item's wait after a transient failure.
 * The service's successes are the client's real watch, fed by hand.
 */
const t0 = 1_000_000

const fields = {
  id: 1, place: "court-1", eventKey: "ev-1", dedupeKey: null, createdAt: t0, attempts: 1, notBefore: t0,
  state: "pending", lastError: null, result: null, settledAt: null, sentAt: null, sentTo: null
} as const
const entry: OutboxItem = { ...fields, kind: "score", payload: scorePayload(1, t0) }

/** A click pressed at `pressedAt` with the sport's default window. */
const click = (pressedAt: number): OutboxItem => ({ ...fields, kind: "click", payload: clickPayload(pressedAt) })

const setup = Effect.gen(function*() {
  yield* TestClock.setTime(t0)
  const watch = makeSuccessWatch()
  const backOff = makeBackOff({ lastSuccessAt: watch.lastAt, successSince: watch.successSince })
  return { watch, backOff }
})

/** Whether the wait has ended once the clock reads `at`. */
const doneBy = (fiber: Fiber.Fiber<void>, at: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(at)
    yield* Effect.yieldNow
    return fiber.pollUnsafe() !== undefined
  })

describe("back-off after a transient failure", () => {
  it.effect("in an outage (no success for a while), the service's next success to anyone ends the wait", () =>
    Effect.gen(function*() {
      const { watch, backOff } = yield* setup
      watch.record(t0 - outageAfterMs - 1)
      // Sixth failure in a row of a past event's entry: a step of about 32 s.
      const waiting = yield* Effect.forkChild(backOff.wait(entry, 5, t0, "past"))
      assert.isFalse(yield* doneBy(waiting, t0 + 10_000))
      watch.record(t0 + 10_000)
      assert.isTrue(yield* doneBy(waiting, t0 + 10_000))
    }))

  it.effect("a success that came between the failure and the wait ends it at once", () =>
    Effect.gen(function*() {
      const { watch, backOff } = yield* setup
      watch.record(t0 + 5)
      const waiting = yield* Effect.forkChild(backOff.wait(entry, 5, t0, "past"))
      assert.isTrue(yield* doneBy(waiting, t0 + 5))
    }))

  it.effect("an item failing while the service answers others waits its full step: its trouble is its own", () =>
    Effect.gen(function*() {
      const { watch, backOff } = yield* setup
      watch.record(t0 - 1_000)
      // Third failure in a row: 4 s ± 20 %.
      const waiting = yield* Effect.forkChild(backOff.wait(entry, 2, t0))
      yield* Effect.yieldNow
      watch.record(t0 + 100)
      assert.isFalse(yield* doneBy(waiting, t0 + 3_100))
      assert.isTrue(yield* doneBy(waiting, t0 + 4_800))
    }))

  it.effect("in an outage, a click whose footage is kept and a live lane's entry retry within 2 s ± 20 %, however many times they failed; a past event's entry does not", () =>
    Effect.gen(function*() {
      const { backOff } = yield* setup
      const fresh = yield* Effect.forkChild(backOff.wait(click(t0 - 10_000), 10, t0))
      const live = yield* Effect.forkChild(backOff.wait(entry, 10, t0, "live"))
      const past = yield* Effect.forkChild(backOff.wait(entry, 10, t0, "past"))
      assert.isTrue(yield* doneBy(fresh, t0 + 2_400))
      assert.isTrue(yield* doneBy(live, t0 + 2_400))
      // The past entry's step is capped at a minute: 48 s at the least.
      assert.isFalse(yield* doneBy(past, t0 + 47_000))
    }))

  it.effect("a click whose footage is gone goes back to the normal steps", () =>
    Effect.gen(function*() {
      const { backOff } = yield* setup
      const stale = yield* Effect.forkChild(backOff.wait(click(t0 - 61_000), 10, t0))
      assert.isFalse(yield* doneBy(stale, t0 + 47_000))
    }))

  it.effect("a click failing while the service answers others does not retry every 2 s (it would take every slot from the scores)", () =>
    Effect.gen(function*() {
      const { watch, backOff } = yield* setup
      watch.record(t0 - 500)
      // Fifth failure in a row: 16 s ± 20 %.
      const waiting = yield* Effect.forkChild(backOff.wait(click(t0 - 10_000), 4, t0))
      assert.isFalse(yield* doneBy(waiting, t0 + 12_000))
    }))
})
