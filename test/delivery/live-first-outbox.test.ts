import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { Outcome } from "../../src/domain/outcome.ts"
import type { KnownEvent } from "../../src/events/active-events.ts"
import { Outbox, OutboxHealth, type OutboxItem, OutboxItems } from "../../src/delivery/outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { makeScheduler } from "../../src/delivery/scheduler.ts"
import { writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { scriptedService } from "./scheduler-ports.ts"

/**
 * Live first on the real outbox: a weekend's file (8 places × 5,000 pending entries of past
 * events, 40,000 items, written by the test support in a second, not by waiting), a live entry
 * per place appended on top, the scheduler with the real rate budget and a scripted service. The
 * first slots go to each place's live entry, the past drains after them oldest first, and the
 * counts the outbox keeps follow every delivery. (The same rules on virtual time, with clicks and
 * latest-first: live-first.test.ts; the daemon as a process: test/daemon/backlog-live-first.test.ts.)
 */
const places = Array.from({ length: 8 }, (_, i) => `court-${i + 1}`)
const perPlace = 5_000
const now = Date.now()

const pendingScores = (counts: ReadonlyArray<{ readonly kind: string; readonly state: string; readonly count: number }>) =>
  counts.filter((c) => c.kind === "score" && c.state === "pending").reduce((n, c) => n + c.count, 0)

describe("live first with a 40,000-item outbox", () => {
  it.live("each place's live entry takes the first slots, the past follows oldest first, the kept counts follow", () => {
    const stateDirectory = tempDir("live-first-outbox")
    const written = writeBacklogOutbox({
      stateDirectory,
      places: places.map((key) => ({ key, pastEventKeys: [`${key}-sat`, `${key}-sun`] })),
      pendingPerPlace: perPlace,
      from: now - 3 * 86_400_000,
      to: now - 3_600_000
    })
    expect(written.items).toBe(places.length * perPlace)
    return Effect.gen(function*() {
      const items = yield* OutboxItems
      const health = yield* OutboxHealth
      const budget = Context.get(yield* Layer.build(RateBudget.layer({ requestsPerSecond: 100 })), RateBudget)
      const live: Array<OutboxItem> = []
      for (const place of places) {
        live.push(yield* items.append({ place, kind: "score", payload: { timeStamp: now, left: 1, right: 0, period: 1 }, eventKey: `${place}-mon`, createdAt: now }))
      }
      const service = scriptedService()
      service.answerWith(() => Outcome.delivered({}))
      // What the service named live on each place (deliver-score.ts learns it from answers).
      const known = new Map<string, KnownEvent>(places.map((place) => [place, { eventKey: `${place}-mon`, learnedAt: now }]))
      yield* makeScheduler({
        outbox: { ...items, diskFailure: health.diskFailure },
        budget,
        deliverer: service.deliverer,
        successes: service.successes,
        liveEvent: (place) => Effect.sync(() => known.get(place)),
        settled: () => Effect.void
      })
      const before = yield* health.pendingScoresByEvent
      expect(before.filter((c) => c.eventKey?.endsWith("-mon")).map((c) => c.count)).toEqual(places.map(() => 1))
      for (let waited = 0; service.sent.length < 40 && waited < 20_000; waited += 20) yield* Effect.sleep(20)
      const first = service.sent.slice(0, 40)
      // Every live entry in the first slots (two places may each have had one past entry granted
      // while their live lane was still being read: the past lane asks beside it).
      const liveAt = live.map((item) => first.findIndex((s) => s.id === item.id))
      expect(Math.max(...liveAt)).toBeLessThan(places.length + 2)
      expect(liveAt.every((at) => at >= 0)).toBe(true)
      for (const place of places) {
        const past = first.filter((s) => s.place === place && !live.some((l) => l.id === s.id)).map((s) => s.id)
        expect(past).toEqual(written.pending.get(place)!.slice(0, past.length).map((p) => p.id))
      }
      // The kept counts follow the deliveries, without reading the items: never fewer pending than
      // not sent, never more than not sent plus those answered but not yet settled (two lanes a place).
      const total = places.length * (perPlace + 1)
      const sentBefore = service.sent.length
      const pending = pendingScores(yield* health.counts)
      const sentAfter = service.sent.length
      expect(pending).toBeGreaterThanOrEqual(total - sentAfter)
      expect(pending).toBeLessThanOrEqual(total - sentBefore + 2 * places.length)
      const after = yield* health.pendingScoresByEvent
      expect(after.filter((c) => c.eventKey?.endsWith("-mon"))).toEqual([])
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory })), Effect.scoped)
  }, 60_000)
})
