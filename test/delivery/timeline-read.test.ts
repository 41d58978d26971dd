import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { placeTimeline } from "../../src/status/place-timeline.ts"
import { writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { clickPayload, scorePayload } from "../support/outbox-payloads.ts"
import { tempStateDirectory } from "./outbox-support.ts"

/**
 * The timeline a status page draws is its place's current event, read from the outbox while
 * someone watches (every few seconds). After a weekend offline the place's newest items are the
 * live event's, and behind them wait thousands of past events' entries: the read stops at the
 * first of those, so it costs the live event's items, not the backlog's (it read 2,000 before).
 */

const now = Date.now()
const liveEntries = 30

/** The real outbox's items, with what the timeline asks of them counted. */
const countingItems = (seen: { recentCalls: number; examined: number }) =>
  Layer.effect(OutboxItems, Effect.map(Effect.service(OutboxItems), (real) =>
    OutboxItems.of({
      ...real,
      recent: (place, limit) => {
        seen.recentCalls++
        return real.recent(place, limit)
      },
      recentWhile: (place, limit, goOn) =>
        real.recentWhile(place, limit, (item) => {
          seen.examined++
          return goOn(item)
        })
    })))

/**
 * A weekend's backlog of court-1 (5,000 entries of Saturday's and Sunday's events), then `live`
 * writes the live match's items; the timeline drawn then, and what its read examined.
 */
const timelineAfterWeekend = async (live: Effect.Effect<void, unknown, OutboxItems | ActiveEvents>) => {
  const stateDirectory = tempStateDirectory()
  writeBacklogOutbox({
    stateDirectory,
    places: [{ key: "court-1", pastEventKeys: ["saturday", "sunday"] }],
    pendingPerPlace: 5_000,
    from: now - 2 * 86_400_000,
    to: now - 3_600_000
  })
  const seen = { recentCalls: 0, examined: 0 }
  const timeline = await Effect.runPromise(
    Effect.gen(function*() {
      yield* live
      seen.examined = 0
      return yield* placeTimeline([{ key: "court-1", buttonSources: [] }], "court-1")
    }).pipe(Effect.provide(countingItems(seen)), Effect.provide(Layer.merge(Outbox.layer({ stateDirectory }), ActiveEvents.layer)))
  )
  return { timeline, seen }
}

describe("the status page's timeline after a weekend offline", () => {
  it("draws the live event from its own items, reading none of the 5,000 past entries behind them but the first", async () => {
    const { timeline, seen } = await timelineAfterWeekend(Effect.gen(function*() {
      const items = yield* OutboxItems
      // Monday's match: its entries (the first captured before the service named the event) and a press.
      for (let n = 1; n <= liveEntries; n++) {
        const entry = yield* items.append({
          place: "court-1", kind: "score", payload: scorePayload(n, now + n * 1_000), eventKey: n === 1 ? null : "monday", createdAt: now + n * 1_000
        })
        // The service's answer names the event of the one captured before it was known.
        if (n === 1) yield* items.markDelivered(entry.id, { eventKey: "monday", key: "s-1" })
      }
      yield* items.append({ place: "court-1", kind: "click", payload: clickPayload(now + 5_500), eventKey: "monday", createdAt: now + 5_500 })
      yield* (yield* ActiveEvents).learn("court-1", "monday")
    }))
    expect(timeline.eventKey).toBe("monday")
    expect(timeline.segments.flatMap((segment) => segment.points).length).toBe(liveEntries)
    expect(timeline.highlights.length).toBe(1)
    // The live event's 31 items and the first of Sunday's, where the read stops.
    expect(seen).toEqual({ recentCalls: 0, examined: liveEntries + 2 })
  }, 30_000)

  it("before any answer names the live event (restarted during the outage), reads the unnamed live entries and stops at the backlog", async () => {
    const { timeline, seen } = await timelineAfterWeekend(Effect.gen(function*() {
      const items = yield* OutboxItems
      // Captured after the restart, while the service was still unreachable: no event known.
      for (let n = 1; n <= liveEntries; n++) {
        yield* items.append({ place: "court-1", kind: "score", payload: scorePayload(n, now + n * 1_000), eventKey: null, createdAt: now + n * 1_000 })
      }
    }))
    expect(timeline.segments.flatMap((segment) => segment.points).length).toBe(liveEntries)
    // The 30 live entries and the first pending one of Sunday's, where the read stops (it read Sunday's 2,500 before).
    expect(seen).toEqual({ recentCalls: 0, examined: liveEntries + 1 })
  }, 30_000)
})
