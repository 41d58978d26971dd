import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import * as td from "testdouble"
import type { OutboxItem } from "../../src/delivery/outbox.ts"
import { makeOutcomeRecorder, type OutcomeRecorderPorts } from "../../src/delivery/outcome-recorder.ts"
import { Outcome } from "../../src/domain/outcome.ts"

/**
 * What the recorder writes and whom it tells, per outcome: the outbox and the rate budget are
 * test doubles here (the seam is which call is made with what), the real ones are judged by
 * their own tests and by the scheduler's.
 */
const item: OutboxItem = {
  id: 7, place: "court-1", kind: "score", payload: {}, eventKey: "ev-1", dedupeKey: null, createdAt: 0, attempts: 0,
  notBefore: 0, state: "pending", lastError: null, result: null, settledAt: null, sentAt: null, sentTo: null
}

const doubles = () => {
  const outbox = td.object<OutcomeRecorderPorts["outbox"]>()
  const budget = td.object<OutcomeRecorderPorts["budget"]>()
  const probeToken = td.func<() => void>()
  for (const write of [outbox.markDelivered, outbox.markWarning, outbox.markDead, outbox.markMissed, outbox.reschedule] as const) {
    td.when((write as (...args: Array<unknown>) => unknown)(td.matchers.anything()), { ignoreExtraArgs: true }).thenReturn(Effect.void)
  }
  ;(budget as { succeeded: unknown }).succeeded = Effect.void
  ;(budget as { rateLimited: unknown }).rateLimited = Effect.succeed(1_234)
  td.when(budget.suspend(td.matchers.anything())).thenReturn(Effect.void)
  const record = makeOutcomeRecorder({ outbox, budget, probeToken: Effect.sync(() => probeToken()) })
  return { outbox, budget, probeToken, record }
}

describe("outcome recorder", () => {
  it.effect("a delivery is marked delivered with the service's answer", () =>
    Effect.gen(function*() {
      const { outbox, record } = doubles()
      yield* record(item, Outcome.delivered({ eventKey: "ev-1" }))
      td.verify(outbox.markDelivered(7, { eventKey: "ev-1" }))
      td.verify(outbox.reschedule(td.matchers.anything(), td.matchers.anything(), td.matchers.anything()), { times: 0, ignoreExtraArgs: true })
    }))

  it.effect("a dead letter and a missed click are kept with their reasons, not retried", () =>
    Effect.gen(function*() {
      const { outbox, record } = doubles()
      yield* record(item, Outcome.dead("400: bad body"))
      yield* record(item, Outcome.missed("footage gone", { skipped: true }))
      td.verify(outbox.markDead(7, "400: bad body"))
      td.verify(outbox.markMissed(7, "footage gone", { skipped: true }))
    }))

  it.effect("a 429 pauses the budget, keeps the item pending and fails Retryable as rate-limited", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(5_000)
      const { outbox, record } = doubles()
      const exit = yield* Effect.exit(record(item, Outcome.retry("rate-limited", "429")))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? exit.cause : undefined
      expect(String(error)).toMatch(/Retryable/u)
      td.verify(outbox.reschedule(7, "429", 5_000, false))
    }))

  it.effect("a 401 suspends every place and starts the token probe; an in-doubt retry keeps its mark", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(9_000)
      const { outbox, budget, probeToken, record } = doubles()
      yield* Effect.exit(record(item, Outcome.retry("unauthorized", "401", true)))
      td.verify(budget.suspend("the service rejected the token (401)"))
      td.verify(probeToken())
      td.verify(outbox.reschedule(7, "401", 9_000, true))
    }))
})
