import { assert, describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Outcome } from "../../src/domain/outcome.ts"
import { OutboxWriteError } from "../../src/delivery/outbox-errors.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { makeScheduler, type SchedulerOptions } from "../../src/delivery/scheduler.ts"
import type { KnownEvent } from "../../src/events/active-events.ts"
import { advanceUntil, memoryOutbox, scriptedService } from "./scheduler-ports.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * The scheduler's rules on virtual time: its lanes, priorities, back-offs, 429 and 401 handling,
 * with the real rate budget and stand-ins for the outbox and the service (scheduler-ports.ts).
 * What only the real parts show (the simulator's own rate limiter, the disk) is in
 * scheduler.test.ts and in-doubt-before-slot.test.ts.
 */
const t0 = 1_000_000
// 5 requests/s with the budget's default 1 % margin.
const intervalMs = 202

const setup = (requestsPerSecond = 5, options: SchedulerOptions = {}) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(t0)
    // Built in the test's scope: its grant loop runs until the test ends.
    const budget = Context.get(yield* Layer.build(RateBudget.layer({ requestsPerSecond })), RateBudget)
    const outbox = memoryOutbox()
    const service = scriptedService()
    const settled: Array<{ readonly itemId: number; readonly outcome: Outcome }> = []
    // What the bridge knows of each place's live event: the test says, as the service's answers would.
    const liveEvents = new Map<string, KnownEvent>()
    const scheduler = yield* makeScheduler({
      outbox: outbox.port,
      budget,
      deliverer: service.deliverer,
      successes: service.successes,
      liveEvent: (place) => Effect.sync(() => liveEvents.get(place)),
      settled: (event) => Effect.sync(() => void settled.push(event))
    }, options)
    return { budget, outbox, service, settled, scheduler, liveEvents }
  })

const score = (left: number) => ({ timeStamp: t0 + left, left, right: 0, period: 1 })
const press = (clickId: string, at: number) => clickPayload(at, { clickId })

describe("scheduler: lanes and priorities", () => {
  it.effect("drains a 60-entry backlog of two places (order `captured`): each place in capture order, the places in turn, one request per interval", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup(5, { liveScoreOrder: "captured" })
      for (let i = 0; i < 60; i++) yield* outbox.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: score(i) })
      yield* advanceUntil(() => service.sent.length === 60, "60 deliveries")
      for (const place of ["court-1", "court-2"]) {
        const ids = service.sent.filter((s) => s.place === place).map((s) => s.id)
        expect(ids).toEqual([...ids].sort((a, b) => a - b))
        expect(ids).toHaveLength(30)
      }
      const places = service.sent.map((s) => s.place)
      expect(places.every((place, i) => i === 0 || place !== places[i - 1])).toBe(true)
      const gaps = service.sent.slice(1).map((s, i) => s.at - service.sent[i]!.at)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(intervalMs)
      // Saturated: no slot is wasted either (steps of 10 ms of virtual time).
      expect(Math.max(...gaps)).toBeLessThanOrEqual(intervalMs + 10)
    }))

  it.effect("a press goes ahead of a 30-entry score backlog, in the next slot", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup(2)
      for (let i = 0; i < 30; i++) yield* outbox.append({ place: "court-1", kind: "score", payload: score(i) })
      yield* advanceUntil(() => service.sent.length >= 2, "the backlog to start")
      const pressedAt = yield* Clock.currentTimeMillis
      const click = yield* outbox.append({ place: "court-1", kind: "click", payload: press("c-1", pressedAt) })
      yield* advanceUntil(() => service.sent.some((s) => s.id === click.id), "the click")
      const at = service.sent.findIndex((s) => s.id === click.id)
      // Nothing goes between the press and the click: it takes the next slot (within the 2/s interval).
      expect(service.sent.slice(0, at).filter((s) => s.at >= pressedAt)).toHaveLength(0)
      expect(service.sent[at]!.at - pressedAt).toBeLessThanOrEqual(505 + 10)
      expect(at).toBeLessThan(4)
    }))

  it.effect("an auto-highlight whose footage is gone is recorded as skipped and spends no slot", () =>
    Effect.gen(function*() {
      const { outbox, service, settled } = yield* setup()
      const old = t0 - 120_000
      const auto = yield* outbox.append({
        place: "court-1", kind: "click", createdAt: old,
        payload: clickPayload(old, { clickId: "a-1", source: "auto", rule: "set-won" }, { startTime: old - 10_000, endTime: old + 5_000 })
      })
      const next = yield* outbox.append({ place: "court-1", kind: "score", payload: score(1) })
      yield* advanceUntil(() => outbox.item(next.id)?.state === "delivered", "the entry behind it")
      expect(outbox.item(auto.id)?.state).toBe("missed")
      expect(outbox.item(auto.id)?.lastError).toMatch(/skipped, not sent.*set-won/u)
      expect(service.sent.map((s) => s.id)).toEqual([next.id])
      expect(settled.find((s) => s.itemId === auto.id)?.outcome._tag).toBe("Missed")
      // The entry took the first slot there was.
      expect(service.sent[0]!.at - t0).toBeLessThanOrEqual(10)
    }))
})

describe("scheduler: failures", () => {
  it.effect("a 429 burst pauses every place with a growing back-off (1 s, 2 s, 4 s, ±20 %), then everything goes in order (`captured`)", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup(5, { liveScoreOrder: "captured" })
      let refusals = 3
      service.answerWith(() => refusals-- > 0 ? Outcome.retry("rate-limited", "429") : Outcome.delivered({}))
      for (let i = 0; i < 8; i++) yield* outbox.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: score(i) })
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === 8, "8 deliveries")
      const pauses = service.sent.slice(0, 3).map((s, i) => service.sent[i + 1]!.at - s.at)
      ;[1_000, 2_000, 4_000].forEach((step, i) => {
        expect(pauses[i]).toBeGreaterThanOrEqual(step * 0.8)
        expect(pauses[i]).toBeLessThanOrEqual(step * 1.2 + intervalMs + 10)
      })
      for (const place of ["court-1", "court-2"]) {
        const delivered = service.sent.filter((s) => s.place === place && s.outcome._tag === "Delivered").map((s) => s.id)
        expect(delivered).toEqual([...delivered].sort((a, b) => a - b))
      }
    }))

  it.effect("a 5xx is retried after its back-off without reordering the place's entries (`captured`)", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup(5, { liveScoreOrder: "captured" })
      let failures = 2
      service.answerWith(() => failures-- > 0 ? Outcome.retry("transient", "503") : Outcome.delivered({}))
      for (let i = 0; i < 3; i++) yield* outbox.append({ place: "court-1", kind: "score", payload: score(i) })
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === 3, "3 deliveries")
      expect(service.sent.map((s) => s.outcome._tag)).toEqual(["Retry", "Retry", "Delivered", "Delivered", "Delivered"])
      expect(service.sent.map((s) => s.id)).toEqual([1, 1, 1, 2, 3])
      // First step 1 s, second 2 s, each jittered ±20 %.
      expect(service.sent[1]!.at - service.sent[0]!.at).toBeGreaterThanOrEqual(800)
      expect(service.sent[2]!.at - service.sent[1]!.at).toBeGreaterThanOrEqual(1_600)
    }))

  it.effect("a click in back-off holds no press behind it; the later press's success ends the first one's back-off", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      service.answerWith((item, attempt) => item.id === 1 && attempt === 0 ? Outcome.retry("transient", "503") : Outcome.delivered({}))
      yield* outbox.append({ place: "court-1", kind: "click", payload: press("refused", t0) })
      yield* advanceUntil(() => service.sent.length === 1, "the first click refused")
      const behind = yield* outbox.append({ place: "court-1", kind: "click", payload: press("behind", t0 + 1) })
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === 2, "both clicks")
      expect(service.sent.filter((s) => s.outcome._tag === "Delivered").map((s) => s.id)).toEqual([behind.id, 1])
      // The refused click's step was about 1 s; it went in the slot after the press's success.
      const [refused, second, retried] = service.sent
      expect(second!.at - refused!.at).toBeLessThanOrEqual(intervalMs + 10)
      expect(retried!.at - second!.at).toBeLessThanOrEqual(intervalMs + 10)
    }))

  it.effect("a 401 pauses every place: only the probe goes out, on its schedule, until the token works; then delivery resumes", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      service.acceptToken(false)
      let rejected = false
      service.answerWith(() => rejected ? Outcome.delivered({}) : (rejected = true, Outcome.retry("unauthorized", "401")))
      for (let i = 0; i < 4; i++) yield* outbox.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: score(i) })
      yield* advanceUntil(() => service.probes.length === 4, "four probes")
      // Nothing but the first, refused request while the token is refused.
      expect(service.sent).toHaveLength(1)
      const gaps = service.probes.slice(1).map((p, i) => p.at - service.probes[i]!.at)
      expect(gaps[1]!).toBeGreaterThan(gaps[0]!)
      expect(gaps[2]!).toBeGreaterThan(gaps[1]!)
      service.acceptToken(true)
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === 4, "4 deliveries after the probe")
      const accepted = service.probes.at(-1)!
      assert.isTrue(accepted.accepted)
      expect(service.sent.slice(1).every((s) => s.at >= accepted.at)).toBe(true)
    }))

  it.effect("a probe refused for half an hour asks at most once per 30 s", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      service.acceptToken(false)
      service.answerWith(() => Outcome.retry("unauthorized", "401"))
      yield* outbox.append({ place: "court-1", kind: "score", payload: score(0) })
      yield* advanceUntil(() => service.probes.length > 0 && service.probes.at(-1)!.at - t0 >= 1_800_000, "half an hour of probes", 1_900_000, 1_000)
      const gaps = service.probes.slice(1).map((p, i) => p.at - service.probes[i]!.at)
      expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000 + intervalMs + 1_000)
      expect(gaps.slice(-10).every((gap) => gap >= 30_000)).toBe(true)
      expect(service.sent).toHaveLength(1)
    }))
})

describe("scheduler when the outbox cannot write", () => {
  it.effect("an in-doubt mark that fails (disk full) is tried again after 1 s, 2 s, 4 s, nothing sent meanwhile; then the item is delivered", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      const marks: Array<number> = []
      service.markWith(() =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          marks.push(now)
          return marks.length <= 3 ? Effect.fail(new OutboxWriteError({ path: "memory", reason: "disk full (ENOSPC)" })) : Effect.succeed(undefined)
        })
      )
      yield* outbox.append({ place: "court-1", kind: "score", payload: score(0) })
      yield* advanceUntil(() => marks.length === 3, "three failed marks")
      expect(service.sent).toEqual([])
      yield* advanceUntil(() => service.sent.length === 1, "the delivery once the mark is written")
      const gaps = marks.slice(1).map((at, i) => at - marks[i]!)
      expect(gaps).toHaveLength(3)
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(1_000 * 2 ** i)
        expect(gap).toBeLessThanOrEqual(1_000 * 2 ** i + 10)
      })
      expect(outbox.item(service.sent[0]!.id)?.state).toBe("delivered")
    }))

  it.effect("a settling write that fails is tried again: the item ends delivered", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      outbox.fillDisk(2)
      const item = yield* outbox.append({ place: "court-1", kind: "score", payload: score(0) })
      yield* advanceUntil(() => outbox.item(item.id)?.state === "delivered", "the item recorded as delivered")
      // Each failed write starts the delivery over (the real outbox's in-doubt mark then reads it back, not resends).
      expect(service.sent.map((s) => s.id)).toEqual([item.id, item.id, item.id])
    }))

  it.effect("once the disk has failed, delivery stops: the failed write is not tried again and nothing more leaves", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      const first = yield* outbox.append({ place: "court-1", kind: "score", payload: score(0) })
      yield* advanceUntil(() => outbox.item(first.id)?.state === "delivered", "the first delivery")
      outbox.failDisk()
      let marks = 0
      service.markWith(() => Effect.suspend(() => (marks++, Effect.fail(new OutboxWriteError({ path: "memory", reason: "the disk failed" })))))
      yield* outbox.append({ place: "court-1", kind: "score", payload: score(1) })
      yield* outbox.append({ place: "court-2", kind: "click", payload: press("c-1", t0) })
      // The daemon ends on the failure (reload.ts); a minute of virtual time shows nothing left the scheduler meanwhile.
      yield* TestClock.adjust("1 minute")
      expect(marks).toBe(0)
      expect(service.sent.map((s) => s.id)).toEqual([first.id])
    }))
})
