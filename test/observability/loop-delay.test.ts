import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { LoopDelay, loopDelayResolutionMs, loopDelayWindowMs } from "../../src/observability/loop-delay.ts"

/** Holds the event loop (this test's, which the monitor watches) for `ms` of real time. */
const blockLoop = (ms: number) =>
  Effect.sync(() => {
    const until = performance.now() + ms
    while (performance.now() < until) { /* the stall the monitor must see */ }
  })

/** Lets real time pass with the loop free, so the monitor's timer fires (at least `firings` times). */
const idle = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

const monitor = Effect.map(Layer.build(LoopDelay.layer()), (context) => Context.get(context, LoopDelay))

describe("LoopDelay (perf_hooks.monitorEventLoopDelay)", () => {
  it.effect("an 80 ms stall shows as the window's max; the window turns each minute and the next one forgets it", () =>
    Effect.gen(function*() {
      const loop = yield* monitor
      yield* idle(30)
      yield* blockLoop(80)
      yield* idle(30)

      // Before the first minute ended: the time since the start, stall included.
      const first = yield* loop.window
      expect(first.spanMs).toBeLessThan(loopDelayWindowMs)
      expect(first.maxMs).toBeGreaterThanOrEqual(80 - loopDelayResolutionMs)
      expect(first.maxMs).toBeLessThan(1_000)
      expect(first.samples).toBeGreaterThan(2)

      // The minute ends: the figures are that whole window's, stall included, however long after.
      yield* TestClock.adjust(loopDelayWindowMs)
      yield* idle(30)
      const whole = yield* loop.window
      expect(whole.spanMs).toBe(loopDelayWindowMs)
      expect(whole.maxMs).toBeGreaterThanOrEqual(80 - loopDelayResolutionMs)
      expect(whole.p50Ms).toBeLessThan(whole.maxMs)

      // The next minute had no stall: its max is the timer's own jitter, not the 80 ms.
      yield* TestClock.adjust(loopDelayWindowMs)
      const next = yield* loop.window
      expect(next.samples).toBeGreaterThan(2)
      expect(next.maxMs).toBeLessThan(40)
    }))

  it.effect("an idle loop's delay is the timer's jitter: well under the 10 ms target at p99", () =>
    Effect.gen(function*() {
      const loop = yield* monitor
      yield* idle(200)
      const window = yield* loop.window
      expect(window.samples).toBeGreaterThan(20)
      expect(window.p50Ms).toBeGreaterThanOrEqual(0)
      expect(window.p50Ms).toBeLessThan(5)
    }))
})
