import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue } from "effect"
import { TestClock } from "effect/testing"
import { makeGestureDetector } from "../../src/buttons/gestures.ts"
import { flushWhenDue } from "../../src/daemon/decoder-timer.ts"
import type { ButtonEvent } from "../../src/domain/button.ts"

/**
 * The timer that releases what a decoder holds back (a hold, a multi-press window) reads Effect's
 * Clock, so its deadlines are checked on virtual time: nothing comes out a millisecond early, and
 * the gesture comes out at its deadline without any input after the edge that started it.
 */
const started = (options: { readonly holdMs: number; readonly multiPressMs: number }) =>
  Effect.gen(function*() {
    const detector = makeGestureDetector({ source: "remote", debounceMs: 40, ...options })
    const bell = yield* Queue.sliding<void>(1)
    const out = yield* Queue.unbounded<ButtonEvent>()
    yield* Effect.forkScoped(flushWhenDue(detector, bell, (press) => Queue.offer(out, press)))
    /** An edge as the input loop takes it: decoded, then the timer woken (its deadline may have moved). */
    const edge = (edge: "press" | "release", at: number) =>
      Effect.gen(function*() {
        for (const press of detector.edge("b1", edge, at)) yield* Queue.offer(out, press)
        yield* Queue.offer(bell, undefined)
        // Lets the timer take the bell and set its timeout before the clock moves.
        yield* Effect.yieldNow
      })
    return { edge, out }
  })

describe("the decoder timer on Effect's clock", () => {
  it.effect("a held button is a hold at holdMs, not before, stamped with its press edge", () =>
    Effect.gen(function*() {
      const { edge, out } = yield* started({ holdMs: 800, multiPressMs: 0 })
      yield* edge("press", 0)
      yield* TestClock.adjust(799)
      expect(yield* Queue.size(out)).toBe(0)
      yield* TestClock.adjust(1)
      expect(yield* Queue.take(out)).toMatchObject({ button: "b1", gesture: "hold", pressedAt: 0 })
      yield* TestClock.adjust(200)
      yield* edge("release", 1000)
      expect(yield* Queue.take(out)).toMatchObject({ gesture: "release", pressedAt: 1000 })
    }).pipe(Effect.scoped))

  it.effect("a press released before holdMs waits out the multi-press window, then is a single from its press edge", () =>
    Effect.gen(function*() {
      const { edge, out } = yield* started({ holdMs: 800, multiPressMs: 300 })
      yield* edge("press", 0)
      yield* TestClock.adjust(120)
      yield* edge("release", 120)
      // The window closes 300 ms after the release: at 420, not at the hold's 800 that was pending before it.
      yield* TestClock.adjust(299)
      expect(yield* Queue.size(out)).toBe(0)
      yield* TestClock.adjust(1)
      expect(yield* Queue.take(out)).toMatchObject({ gesture: "single", pressedAt: 0 })
    }).pipe(Effect.scoped))

  it.effect("two presses within the window are one double, decided when the window after the second closes", () =>
    Effect.gen(function*() {
      const { edge, out } = yield* started({ holdMs: 800, multiPressMs: 300 })
      yield* edge("press", 0)
      yield* TestClock.adjust(100)
      yield* edge("release", 100)
      yield* TestClock.adjust(150)
      yield* edge("press", 250)
      yield* TestClock.adjust(100)
      yield* edge("release", 350)
      yield* TestClock.adjust(299)
      expect(yield* Queue.size(out)).toBe(0)
      yield* TestClock.adjust(1)
      expect(yield* Queue.take(out)).toMatchObject({ gesture: "double", pressedAt: 0 })
      expect(yield* Queue.size(out)).toBe(0)
    }).pipe(Effect.scoped))
})
