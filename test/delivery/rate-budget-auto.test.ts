import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { RateBudget, slotOf } from "../../src/delivery/rate-budget.ts"

/**
 * Auto-highlights in the rate budget, in virtual time: a press first, then auto-highlights
 * (oldest first), then the score backlog. The slots are asked for as the scheduler does, with
 * `slotOf` of the outbox item, so an auto-highlight is told apart from a press by its body.
 */

const oneASecond = RateBudget.layer({ requestsPerSecond: 1, margin: 0 })

const press = (createdAt: number) => ({ kind: "click" as const, createdAt, payload: { timeStamp: createdAt, metadata: { source: "remote", button: "1" } } })
const auto = (createdAt: number) => ({ kind: "click" as const, createdAt, payload: { timeStamp: createdAt, metadata: { source: "auto", rule: "score" } } })
const score = (createdAt: number) => ({ kind: "score" as const, createdAt, payload: { timeStamp: createdAt, left: 1, right: 0, period: 1 } })

/** Asks the budget for slots in the background, writing down who was granted one, in order. */
const asker = (budget: RateBudget["Service"]) => {
  const granted: Array<string> = []
  const ask = (name: string, item: Parameters<typeof slotOf>[0]) =>
    Effect.forkChild(Effect.tap(budget.acquire(...slotOf(item)), () => Effect.sync(() => granted.push(name))))
  return { granted, ask }
}

describe("RateBudget with auto-highlights", () => {
  it("slotOf: a press asks as a click, an auto-highlight as an auto, an entry as a score", () => {
    assert.deepStrictEqual(slotOf(press(5)), ["click", 5])
    assert.deepStrictEqual(slotOf(auto(6)), ["auto", 6])
    assert.deepStrictEqual(slotOf(score(7)), ["score", 7])
  })

  it.effect("waiting score, autos and a press are granted: the press, the autos oldest first, then the score", () =>
    Effect.gen(function*() {
      const budget = yield* RateBudget
      // The slot is taken: everything below waits for the next ones.
      yield* budget.acquire("score")
      yield* budget.sending
      const { granted, ask } = asker(budget)
      // In the worst order: the score asked first, the newer auto before the older, the press last.
      yield* ask("score 100", score(100))
      yield* ask("auto 300", auto(300))
      yield* ask("auto 200", auto(200))
      yield* ask("press 400", press(400))
      yield* Effect.yieldNow
      for (let slot = 1; slot <= 4; slot++) {
        yield* TestClock.setTime(slot * 1_000)
        yield* Effect.yieldNow
        yield* budget.sending
        assert.strictEqual(granted.length, slot, `one grant per slot, at slot ${slot}`)
      }
      assert.deepStrictEqual(granted, ["press 400", "auto 200", "auto 300", "score 100"])
    }).pipe(Effect.provide(oneASecond)))

  it.effect("an auto-highlight waiting behind a backlog takes the next slot; a press arriving meanwhile still goes ahead of it", () =>
    Effect.gen(function*() {
      const budget = yield* RateBudget
      yield* budget.acquire("score")
      yield* budget.sending
      const { granted, ask } = asker(budget)
      for (let i = 0; i < 3; i++) yield* ask(`score ${i}`, score(i))
      yield* ask("auto 10", auto(10))
      yield* Effect.yieldNow
      yield* TestClock.setTime(500)
      yield* ask("press 500", press(500))
      yield* Effect.yieldNow
      for (let slot = 1; slot <= 5; slot++) {
        yield* TestClock.setTime(slot * 1_000)
        yield* Effect.yieldNow
        yield* budget.sending
      }
      assert.deepStrictEqual(granted, ["press 500", "auto 10", "score 0", "score 1", "score 2"])
    }).pipe(Effect.provide(oneASecond)))
})
