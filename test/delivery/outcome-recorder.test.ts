import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, type Scope } from "effect"
import { TestClock } from "effect/testing"
import * as td from "testdouble"
import { makeOutcomeRecorder } from "../../src/delivery/outcome-recorder.ts"
import { Outcome } from "../../src/domain/outcome.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { memoryOutbox } from "./scheduler-ports.ts"

/**
 * What the recorder writes and whom it tells, per outcome, on virtual time: the real rate budget
 * (whose back-off the 429-reset rule is about), the scheduler's in-memory outbox (whose items
 * show what was written), and a test double only for starting the token probe, a call whose
 * effect (a background fiber) belongs to the token probe's own tests.
 */
const setUp = Effect.gen(function*() {
  const outbox = memoryOutbox()
  const budget = yield* RateBudget
  const probeToken = td.func<() => void>()
  const record = makeOutcomeRecorder({ outbox: outbox.port, budget, probeToken: Effect.sync(() => probeToken()) })
  const item = yield* outbox.append({ place: "court-1", kind: "score", payload: { timeStamp: 0, left: 1, right: 0, period: 1 } })
  return { outbox, budget, probeToken, record, item }
})

const withBudget = <A, E>(body: Effect.Effect<A, E, RateBudget | Scope.Scope>) =>
  body.pipe(Effect.provide(RateBudget.layer({ requestsPerSecond: 1 })), Effect.scoped)

/** How long every place pauses after this 429, read from the budget once the earlier pauses are over. */
const pauseAfter429 = Effect.fnUntraced(function*(context: Effect.Success<typeof setUp>) {
  yield* TestClock.adjust("1 minute")
  yield* Effect.exit(context.record(context.item, Outcome.retry("rate-limited", "429")))
  const snapshot = yield* context.budget.snapshot
  return (snapshot.backoffUntil ?? 0) - (yield* Clock.currentTimeMillis)
})

describe("outcome recorder", () => {
  it.effect("a delivery is marked delivered with the service's answer", () =>
    withBudget(Effect.gen(function*() {
      const { outbox, record, item } = yield* setUp
      yield* record(item, Outcome.delivered({ eventKey: "ev-1" }))
      expect(outbox.item(item.id)).toMatchObject({ state: "delivered", result: { eventKey: "ev-1" }, attempts: 1 })
    })))

  it.effect("a dead letter and a missed click are kept with their reasons, not retried", () =>
    withBudget(Effect.gen(function*() {
      const { outbox, record, item } = yield* setUp
      const click = yield* outbox.append({ place: "court-1", kind: "click", payload: { timeStamp: 0, metadata: { clickId: "c-1", team: "none", source: "test" } } })
      yield* record(item, Outcome.dead("400: bad body"))
      yield* record(click, Outcome.missed("footage gone", { skipped: true }))
      expect(outbox.item(item.id)).toMatchObject({ state: "dead", lastError: "400: bad body" })
      expect(outbox.item(click.id)).toMatchObject({ state: "missed", lastError: "footage gone", result: { skipped: true } })
    })))

  it.effect("a 429 pauses every place, keeps the item pending and fails Retryable as rate-limited", () =>
    withBudget(Effect.gen(function*() {
      yield* TestClock.setTime(5_000)
      const { outbox, budget, record, item } = yield* setUp
      const exit = yield* Effect.exit(record(item, Outcome.retry("rate-limited", "429")))
      expect(exit).toMatchObject({ _tag: "Failure", cause: { reasons: [{ error: { _tag: "Retryable", kind: "rate-limited", failedAt: 5_000 } }] } })
      expect(outbox.item(item.id)).toMatchObject({ state: "pending", lastError: "429", notBefore: 5_000, attempts: 1 })
      // The first pause: 1 s, jittered ±20 %.
      expect((yield* budget.snapshot).backoffUntil).toBeGreaterThanOrEqual(5_800)
    })))

  it.effect("a success resets the token's 429 back-off: the next 429 pauses as briefly as the first", () =>
    withBudget(Effect.gen(function*() {
      const context = yield* setUp
      const growing = [yield* pauseAfter429(context), yield* pauseAfter429(context), yield* pauseAfter429(context)]
      // 1 s, 2 s, 4 s, each jittered ±20 %: without a success in between they keep growing.
      expect(growing[2]).toBeGreaterThanOrEqual(3_200)
      yield* context.record(context.item, Outcome.delivered({}))
      expect(yield* pauseAfter429(context)).toBeLessThanOrEqual(1_200)
    })))

  it.effect("an answer with a warning resets it too; a transient failure does not", () =>
    withBudget(Effect.gen(function*() {
      const context = yield* setUp
      yield* pauseAfter429(context)
      yield* pauseAfter429(context)
      yield* Effect.exit(context.record(context.item, Outcome.retry("transient", "503")))
      expect(yield* pauseAfter429(context)).toBeGreaterThanOrEqual(3_200)
      yield* context.record(context.item, Outcome.warning("no event running"))
      expect(yield* pauseAfter429(context)).toBeLessThanOrEqual(1_200)
    })))

  it.effect("a 401 suspends every place and starts the token probe; an in-doubt retry keeps its mark", () =>
    withBudget(Effect.gen(function*() {
      yield* TestClock.setTime(9_000)
      const { outbox, budget, probeToken, record, item } = yield* setUp
      yield* outbox.markSent(item.id, "place", 8_000)
      yield* Effect.exit(record(item, Outcome.retry("unauthorized", "401", true)))
      expect((yield* budget.snapshot).suspended).toBe("the service rejected the token (401)")
      td.verify(probeToken(), { times: 1 })
      expect(outbox.item(item.id)).toMatchObject({ state: "pending", lastError: "401", notBefore: 9_000, sentAt: 8_000, sentTo: "place" })
    })))
})
