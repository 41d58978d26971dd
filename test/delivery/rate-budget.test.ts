import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { RateBudget } from "../../src/delivery/rate-budget.ts"

const oneASecond = RateBudget.layer({ requestsPerSecond: 1, margin: 0 })

/** Whether `fiber` is done after the clock moved to `at` (ms since the test's start). */
const grantedBy = (fiber: Fiber.Fiber<void>, at: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(at)
    yield* Effect.yieldNow
    return fiber.pollUnsafe() !== undefined
  })

describe("RateBudget spacing", () => {
  it.effect("spaces grants one interval apart", () =>
    Effect.gen(function*() {
      const budget = yield* RateBudget
      yield* budget.acquire("score")
      yield* budget.sending
      const next = yield* Effect.forkChild(budget.acquire("click"))
      assert.isFalse(yield* grantedBy(next, 999))
      assert.isTrue(yield* grantedBy(next, 1_000))
    }).pipe(Effect.provide(oneASecond)))

  it.effect("a send delayed after its grant (a stalled fsync) pushes the next grant back: the two never leave together", () =>
    Effect.gen(function*() {
      const budget = yield* RateBudget
      yield* budget.acquire("score")
      // The in-doubt write took 1.5 s; the request only leaves now.
      yield* TestClock.setTime(1_500)
      yield* budget.sending
      const next = yield* Effect.forkChild(budget.acquire("click"))
      assert.isFalse(yield* grantedBy(next, 1_500))
      assert.isFalse(yield* grantedBy(next, 2_499))
      assert.isTrue(yield* grantedBy(next, 2_500))
    }).pipe(Effect.provide(oneASecond)))
})

describe("RateBudget order", () => {
  it.effect("waiting clicks are granted oldest press first, whichever asked first; scores in the order they asked, after every click", () =>
    Effect.gen(function*() {
      const budget = yield* RateBudget
      yield* budget.acquire("score")
      yield* budget.sending
      const granted: Array<string> = []
      const ask = (name: string, priority: "click" | "score", order: number) =>
        Effect.forkChild(Effect.tap(budget.acquire(priority, order), () => Effect.sync(() => granted.push(name))))
      // As after an outage: the woken items ask in whatever order their fibers ran.
      yield* ask("score pressed 5", "score", 5)
      yield* ask("click pressed 30", "click", 30)
      yield* ask("score pressed 1", "score", 1)
      yield* ask("click pressed 10", "click", 10)
      yield* ask("click pressed 20", "click", 20)
      yield* Effect.yieldNow
      for (let slot = 1; slot <= 5; slot++) {
        yield* TestClock.setTime(slot * 1_000)
        yield* Effect.yieldNow
        yield* budget.sending
      }
      assert.deepStrictEqual(granted, ["click pressed 10", "click pressed 20", "click pressed 30", "score pressed 5", "score pressed 1"])
    }).pipe(Effect.provide(oneASecond)))
})
