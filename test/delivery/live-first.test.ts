import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Outcome } from "../../src/domain/outcome.ts"
import type { KnownEvent } from "../../src/events/active-events.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { makeScheduler, type SchedulerOptions } from "../../src/delivery/scheduler.ts"
import { clickPayload } from "../support/outbox-payloads.ts"
import { memoryOutbox, scriptedService } from "./scheduler-ports.ts"

/**
 * Live first after an outage, on virtual time with the real rate budget and the scheduler's
 * stand-ins (scheduler-ports.ts): each place's live score is current within a few slots of the
 * service's return however long the past events' backlog, clicks stay ahead of everything, and
 * the past drains in the slots left, each event's entries oldest first. The same with the real
 * outbox over a 40,000-item file: live-first-outbox.test.ts.
 */
const t0 = 1_000_000
// 5 requests/s and the budget's 1 % margin.
const intervalMs = 202

/**
 * Moves the virtual clock on in 10 ms steps until `done`, letting every fiber run to its next wait
 * at each step: a delivery that ends re-queues its lane's next entry at the budget within the same
 * instant, as it does in real time (microseconds against a slot of 200 ms), whatever the machine's load.
 */
const advanceUntil = (done: () => boolean, what: string, limitMs = 600_000) =>
  Effect.gen(function*() {
    for (let waited = 0; !done(); waited += 10) {
      if (waited > limitMs) return yield* Effect.die(new Error(`not within ${limitMs} ms of virtual time: ${what}`))
      yield* TestClock.adjust(10)
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow
    }
  })

type OutboxPort = ReturnType<typeof memoryOutbox>["port"]

const setup = (options: SchedulerOptions = {}, watch: (port: OutboxPort) => OutboxPort = (port) => port) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(t0)
    const budget = Context.get(yield* Layer.build(RateBudget.layer({ requestsPerSecond: 5 })), RateBudget)
    const outbox = memoryOutbox()
    const service = scriptedService()
    const liveEvents = new Map<string, KnownEvent>()
    yield* makeScheduler({
      outbox: watch(outbox.port),
      budget,
      deliverer: service.deliverer,
      successes: service.successes,
      liveEvent: (place) => Effect.sync(() => liveEvents.get(place)),
      settled: () => Effect.void
    }, options)
    return { budget, outbox, service, liveEvents }
  })

const entry = (at: number, left: number) => ({ timeStamp: at, left, right: 0, period: 1 })
const places = ["court-1", "court-2", "court-3"]

/** Per place, `past` entries of two past events, then `live` entries of the live event, all captured before now. */
const fillOutage = (outbox: ReturnType<typeof memoryOutbox>, past: number, live: number, liveKey: string | null) =>
  Effect.gen(function*() {
    const ids = new Map<string, { past: Array<number>; live: Array<number> }>()
    for (const place of places) ids.set(place, { past: [], live: [] })
    for (let i = 0; i < past; i++) {
      for (const place of places) {
        const item = yield* outbox.append({ place, kind: "score", payload: entry(t0 - 3_600_000 + i, i), eventKey: `${place}-past-${i < past / 2 ? 1 : 2}`, createdAt: t0 - 3_600_000 + i })
        ids.get(place)!.past.push(item.id)
      }
    }
    for (let i = 0; i < live; i++) {
      for (const place of places) {
        const item = yield* outbox.append({ place, kind: "score", payload: entry(t0 - 60_000 + i * 1000, i), eventKey: liveKey, createdAt: t0 - 60_000 + i * 1000 })
        ids.get(place)!.live.push(item.id)
      }
    }
    return ids
  })

describe("live first: the live scores ahead of a past events' backlog", () => {
  it.effect("after an outage each place's latest live entry goes in the first slots, then the rest of its live event, then the past", () =>
    Effect.gen(function*() {
      const { outbox, service, liveEvents } = yield* setup()
      let down = true
      service.answerWith(() => down ? Outcome.retry("transient", "503") : Outcome.delivered({}))
      const ids = yield* fillOutage(outbox, 200, 5, null)
      // An hour-long outage in the scheduler's eyes: every lane fails and backs off.
      yield* advanceUntil(() => service.sent.length >= 12, "the outage's first failed attempts")
      yield* TestClock.adjust(60_000)
      down = false
      const back = yield* Clock.currentTimeMillis
      // As the first answer to a place's entry would tell the bridge (deliver-score.ts).
      for (const place of places) liveEvents.set(place, { eventKey: `${place}-live`, learnedAt: back })
      const delivered = () => service.sent.filter((s) => s.at >= back && s.outcome._tag === "Delivered")
      const allLive = places.flatMap((place) => ids.get(place)!.live)
      const liveDone = () => allLive.every((id) => delivered().some((s) => s.id === id))
      yield* advanceUntil(liveDone, "the live entries")
      const lastLive = Math.max(...allLive.map((id) => delivered().findIndex((s) => s.id === id)))
      const first = delivered().slice(0, lastLive + 1)
      // A past entry waking from its own back-off may find the service's return first, alone at the
      // budget (the live heads still asleep for up to 2 s): one slot; after it, live only.
      expect(first.length - allLive.length).toBeLessThanOrEqual(1)
      for (const place of places) {
        const { live } = ids.get(place)!
        const ofPlace = first.filter((s) => s.place === place && live.includes(s.id)).map((s) => s.id)
        // The newest first, then the rest of the live event oldest first.
        expect(ofPlace).toEqual([live.at(-1), ...live.slice(0, -1)])
        // Current within a couple of seconds of the return: the live head retries every ≤ 2 s in an outage.
        const latestAt = first.find((s) => s.id === live.at(-1))!.at
        expect(latestAt - back).toBeLessThanOrEqual(2_400 + (places.length + 1) * intervalMs)
      }
      // The past then drains in the slots left, each event's entries oldest first, to the end.
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === places.length * 205, "everything", 1_200_000)
      for (const place of places) {
        const pastSent = delivered().filter((s) => s.place === place && ids.get(place)!.past.includes(s.id)).map((s) => s.id)
        expect(pastSent).toEqual(ids.get(place)!.past)
      }
    }))

  it.effect("a press and a new live change go ahead of the past backlog while it drains; past slots are only those left", () =>
    Effect.gen(function*() {
      const { outbox, service, liveEvents } = yield* setup()
      for (const place of places) liveEvents.set(place, { eventKey: `${place}-live`, learnedAt: t0 })
      const ids = yield* fillOutage(outbox, 100, 1, "unused")
      yield* advanceUntil(() => service.sent.length >= 20, "the backlog to drain for a while")
      const changedAt = yield* Clock.currentTimeMillis
      const change = yield* outbox.append({ place: "court-2", kind: "score", payload: entry(changedAt, 99), eventKey: "court-2-live" })
      const click = yield* outbox.append({ place: "court-3", kind: "click", payload: clickPayload(changedAt, { clickId: "c-1" }) })
      yield* advanceUntil(() => service.sent.some((s) => s.id === change.id), "the live change")
      const after = service.sent.filter((s) => s.at >= changedAt)
      // The click in the next slot, the live change in the one after: no past entry between.
      expect(after.slice(0, 2).map((s) => s.id)).toEqual([click.id, change.id])
      expect(after[1]!.at - changedAt).toBeLessThanOrEqual(2 * intervalMs + 10)
      // Entries stamped with another event than the one the service names live are past ones: the
      // newest of them (captured last) waits behind the older past entries, not ahead of them.
      expect(service.sent.some((s) => ids.get("court-1")!.live.includes(s.id))).toBe(false)
    }))

  it.effect("order `captured`: the live event's entries oldest first, still ahead of the past", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup({ liveScoreOrder: "captured" })
      const ids = yield* fillOutage(outbox, 30, 4, null)
      yield* advanceUntil(() => service.sent.length >= places.length * 4, "the live entries")
      for (const place of places) {
        expect(service.sent.slice(0, places.length * 4).filter((s) => s.place === place).map((s) => s.id)).toEqual(ids.get(place)!.live)
      }
    }))

  it.effect("a live change made while the lane's entry waits for its slot takes that slot", () =>
    Effect.gen(function*() {
      const { outbox, service, liveEvents } = yield* setup()
      for (const place of places) liveEvents.set(place, { eventKey: `${place}-live`, learnedAt: t0 })
      // Every place catching up (entries a minute old): each lane's newest entry queues at the budget.
      const ids = yield* fillOutage(outbox, 0, 3, null)
      yield* advanceUntil(() => service.sent.length >= 1, "the first slot")
      expect(service.sent.some((s) => s.place === "court-3")).toBe(false)
      // court-3's newest entry is still waiting two slots back when the board changes again.
      const changedAt = yield* Clock.currentTimeMillis
      const change = yield* outbox.append({ place: "court-3", kind: "score", payload: entry(changedAt, 9), eventKey: null, createdAt: changedAt })
      yield* advanceUntil(() => service.sent.some((s) => s.place === "court-3"), "court-3's first entry")
      const court3 = () => service.sent.filter((s) => s.place === "court-3").map((s) => s.id)
      expect(court3()).toEqual([change.id])
      // Still within the slot the waiting entry had: no slot lost, the others' turns unchanged.
      expect(service.sent.findIndex((s) => s.place === "court-3")).toBe(2)
      // The entry that gave up its slot goes later, nothing lost or sent twice.
      yield* advanceUntil(() => service.sent.filter((s) => s.outcome._tag === "Delivered").length === places.length * 3 + 1, "everything")
      expect([...court3()].sort((a, b) => a - b)).toEqual([...ids.get("court-3")!.live, change.id])
    }))

  it.effect("each wake reads the heads of the lanes it could start an entry in, not those of a busy lane", () =>
    Effect.gen(function*() {
      const asked: Array<ReadonlyArray<string>> = []
      const { outbox, service } = yield* setup({}, (port) => ({
        ...port,
        scoreHeads: (place, live, lanes) => {
          asked.push(lanes ?? ["live", "past"])
          return port.scoreHeads(place, live, lanes)
        }
      }))
      // The live lane's first entry never gets past its in-doubt mark: the lane stays busy.
      service.markWith(() => Effect.never)
      const change = (left: number) => outbox.append({ place: "court-1", kind: "score", payload: entry(t0 + left, left), eventKey: null, createdAt: t0 + left })
      yield* change(1)
      yield* advanceUntil(() => asked.length >= 1, "the first dispatch")
      // Each later change wakes the scheduler while the live lane is busy: only the past lane is read.
      for (let left = 2; left <= 6; left++) {
        yield* change(left)
        const seen = asked.length
        yield* advanceUntil(() => asked.length > seen, `the dispatch after change ${left}`)
      }
      expect(asked[0]).toEqual(["live", "past"])
      expect(asked.slice(1)).toEqual(Array.from({ length: asked.length - 1 }, () => ["past"]))
      expect(asked.length).toBeGreaterThanOrEqual(6)
    }))

  it.effect("until the service names a live event, the newest pending entry's event is the live one", () =>
    Effect.gen(function*() {
      const { outbox, service } = yield* setup()
      const ids = yield* fillOutage(outbox, 20, 3, "court-live")
      yield* advanceUntil(() => service.sent.length >= places.length * 3, "the live entries")
      const firstIds = service.sent.slice(0, places.length * 3).map((s) => s.id)
      for (const place of places) expect(ids.get(place)!.live.every((id) => firstIds.includes(id))).toBe(true)
    }))
})
