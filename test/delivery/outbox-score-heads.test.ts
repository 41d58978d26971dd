import { cpSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { Effect, Option } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type { KindItem, ScoreHeads } from "../../src/delivery/outbox.ts"
import { outboxStatements } from "../../src/delivery/outbox-statements.ts"
import { type BacklogOutbox, writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"
import { outboxFile, withDatabase } from "./newer-outbox.ts"
import { scorePayload } from "../support/outbox-payloads.ts"

/**
 * The score lanes after a weekend offline (the contract of issue 34): a place's pending scores are
 * live (no event key, or the live event's) or past (another event's). On a 40,000-item file made by
 * the test support: each head is right, and each is an index search, never a walk of the backlog.
 */

const places = Array.from({ length: 8 }, (_, i) => `court-${i + 1}`)
const eventsPerPlace = 12
const pastEvent = (place: string, n: number) => `${place}-past-${n}`
const now = Date.now()

let template: string
let backlog: BacklogOutbox

beforeAll(() => {
  template = tempStateDirectory()
  backlog = writeBacklogOutbox({
    stateDirectory: template,
    places: places.map((key) => ({ key, pastEventKeys: Array.from({ length: eventsPerPlace }, (_, n) => pastEvent(key, n)) })),
    pendingPerPlace: 5_000,
    from: now - 3 * 86_400_000,
    to: now - 3_600_000
  })
  expect(backlog.items).toBe(40_000)
}, 30_000)

/** A copy of the weekend's file, for a test to change. */
const weekend = () => {
  const stateDirectory = tempStateDirectory()
  cpSync(template, stateDirectory, { recursive: true })
  return stateDirectory
}

const ids = (heads: ScoreHeads) => ({
  latest: Option.getOrUndefined(heads.latest)?.id,
  oldestLive: Option.getOrUndefined(heads.oldestLive)?.id,
  oldestPast: Option.getOrUndefined(heads.oldestPast)?.id,
  liveEventKey: heads.liveEventKey
})

const pendingOf = (place: string) => backlog.pending.get(place)!

describe("OutboxItems.scoreHeads on a weekend's backlog (8 places × 5,000 past entries)", () => {
  it("live: no event key or the live event's; past: another event's; latest: the newest live one", async () => {
    const seen = await runWithOutbox(weekend(), (outbox) =>
      Effect.gen(function*() {
        const score = (left: number, eventKey: string | null) =>
          outbox.append({ place: "court-1", kind: "score", payload: scorePayload(left, now + left), eventKey, createdAt: now + left })
        // Monday: two entries before any answer named the event, two of its event, and a press between.
        const beforeAnswer = yield* score(1, null)
        const first = yield* score(2, "monday")
        yield* outbox.append({ place: "court-1", kind: "click", payload: { timeStamp: now, metadata: { clickId: "c", team: "home", source: "remote" } }, eventKey: "monday", createdAt: now })
        const second = yield* score(3, "monday")
        const lastUnnamed = yield* score(4, null)
        const heads = (live: { readonly eventKey: string | null } | undefined) => Effect.map(outbox.scoreHeads("court-1", live), ids)
        const monday = yield* heads({ eventKey: "monday" })
        const noEvent = yield* heads({ eventKey: null })
        const unknownWhileNewestUnnamed = yield* heads(undefined)
        yield* outbox.markDelivered(lastUnnamed.id, { eventKey: "monday", key: "s-4" })
        const unknown = yield* heads(undefined)
        // A past event named live: its entries and the unnamed ones are the live lane.
        const pastLive = yield* heads({ eventKey: pastEvent("court-1", 5) })
        yield* outbox.markDelivered(pendingOf("court-1")[0]!.id, {})
        const afterFirstPast = yield* heads({ eventKey: "monday" })
        return { ids: { beforeAnswer: beforeAnswer.id, first: first.id, second: second.id, lastUnnamed: lastUnnamed.id }, monday, noEvent, unknownWhileNewestUnnamed, unknown, pastLive, afterFirstPast }
      }))
    const past = pendingOf("court-1")
    const { beforeAnswer, second, lastUnnamed } = seen.ids
    expect(seen.monday).toEqual({ latest: lastUnnamed, oldestLive: beforeAnswer, oldestPast: past[0]!.id, liveEventKey: "monday" })
    // No event runs: Monday's entries are another event's, the oldest past one is still Saturday's first.
    expect(seen.noEvent).toEqual({ latest: lastUnnamed, oldestLive: beforeAnswer, oldestPast: past[0]!.id, liveEventKey: null })
    // Not known: the newest pending score's key is the live event's (here none).
    expect(seen.unknownWhileNewestUnnamed).toEqual(seen.noEvent)
    expect(seen.unknown).toEqual({ latest: second, oldestLive: beforeAnswer, oldestPast: past[0]!.id, liveEventKey: "monday" })
    const fifth = past.find((entry) => entry.eventKey === pastEvent("court-1", 5))!
    expect(seen.pastLive).toEqual({ latest: beforeAnswer, oldestLive: fifth.id, oldestPast: past[0]!.id, liveEventKey: pastEvent("court-1", 5) })
    expect(seen.afterFirstPast.oldestPast).toBe(past[1]!.id)
  }, 30_000)

  it("a place with only its backlog, and one with nothing pending", async () => {
    const { backlogOnly, live, empty, pastLane, liveLane } = await runWithOutbox(weekend(), (outbox) =>
      Effect.all({
        backlogOnly: outbox.scoreHeads("court-2", undefined),
        live: outbox.scoreHeads("court-2", { eventKey: "monday" }),
        empty: outbox.scoreHeads("court-9", undefined),
        // The scheduler asks only for the lanes it could start an entry in.
        pastLane: outbox.scoreHeads("court-2", undefined, ["past"]),
        liveLane: outbox.scoreHeads("court-2", undefined, ["live"])
      }))
    const past = pendingOf("court-2")
    const newestEvent = past.filter((entry) => entry.eventKey === pastEvent("court-2", eventsPerPlace - 1))
    // Nothing said which event is live: the newest pending score's event is taken as live.
    expect(ids(backlogOnly)).toEqual({
      latest: past.at(-1)!.id,
      oldestLive: newestEvent[0]!.id,
      oldestPast: past[0]!.id,
      liveEventKey: pastEvent("court-2", eventsPerPlace - 1)
    })
    expect((Option.getOrThrow(backlogOnly.oldestPast) as KindItem<"score">).payload).toEqual(past[0]!.entry)
    expect(ids(live)).toEqual({ latest: undefined, oldestLive: undefined, oldestPast: past[0]!.id, liveEventKey: "monday" })
    expect(ids(empty)).toEqual({ latest: undefined, oldestLive: undefined, oldestPast: undefined, liveEventKey: null })
    expect(ids(pastLane)).toEqual({ ...ids(backlogOnly), latest: undefined, oldestLive: undefined })
    expect(ids(liveLane)).toEqual({ ...ids(backlogOnly), oldestPast: undefined })
  }, 30_000)

  it("searches the pending indexes only: no plan walks items, and the past events are stepped one by one", () => {
    const stateDirectory = weekend()
    // The support wrote it through the outbox's own open: this bridge's schema, its index included.
    const plans = withDatabase(stateDirectory, (db) => {
      const sql = outboxStatements(db)
      const plan = (statement: { readonly sourceSQL: string }) => {
        const explain = db.prepare(`EXPLAIN QUERY PLAN ${statement.sourceSQL}`)
        explain.setAllowUnknownNamedParameters(true)
        return explain.all({ place: "court-1", kind: "score", after: 0, eventKey: "monday", live: "monday" }).map((row) => String(row["detail"]))
      }
      return {
        pending: plan(sql.pending),
        newestScoreEvent: plan(sql.newestScoreEvent),
        scoresOfEvent: plan(sql.scoresOfEvent),
        scoresOfEventNewest: plan(sql.scoresOfEventNewest),
        pastScoreEvents: plan(sql.pastScoreEvents),
        lanes: plan(sql.lanes),
        pastEvents: sql.pastScoreEvents.all({ place: "court-1", live: pastEvent("court-1", 3) }).map((row) => row["event_key"])
      }
    })
    // The newest pending score is the first step back along the place's pending scores; every
    // other read seeks to one event's entries (a walk of items_pending would read the backlog).
    const expected = {
      // A lane's pending items (the scheduler's clicks): never a step over the lane's settled ones.
      pending: /^SEARCH items USING INDEX items_pending \(place=\? AND kind=\? AND id>\?\)$/,
      newestScoreEvent: /^SEARCH items USING INDEX items_pending \(place=\? AND kind=\?\)$/,
      scoresOfEvent: /^SEARCH items USING INDEX items_pending_event \(place=\? AND kind=\? AND event_key=\?\)$/,
      scoresOfEventNewest: /^SEARCH items USING INDEX items_pending_event \(place=\? AND kind=\? AND event_key=\?\)$/,
      pastScoreEvents: /^SEARCH \w+ USING COVERING INDEX items_pending_event \(place=\? AND kind=\? AND event_key[>=]\?\)$/,
      // The scheduler's lanes at every wake: a few seeks per place, never a walk of the items.
      lanes: /^(SCAN items|SEARCH \w+) USING COVERING INDEX items_pending( \(place>\?\)| \(place=\? AND kind=\?\))?$/
    }
    for (const [name, pattern] of Object.entries(expected)) {
      const onItems = plans[name as keyof typeof expected].filter((line) => /^(SCAN|SEARCH) \w+ USING|^SCAN (items|[a-z])$/.test(line))
      expect(onItems.length, name).toBeGreaterThan(0)
      for (const line of onItems) expect(line, name).toMatch(pattern)
    }
    // One row per past event, oldest first (the live one left out), whatever the number of entries.
    expect(plans.pastEvents).toEqual(Array.from({ length: eventsPerPlace }, (_, n) => pastEvent("court-1", n)).filter((key) => key !== pastEvent("court-1", 3)))
  }, 30_000)
})

describe("OutboxItems.scoreHeads and malformed rows", () => {
  it("passes over a head that cannot be read for its lane's next readable entry, and leaves it as it is", async () => {
    const stateDirectory = tempStateDirectory()
    const [saturday, saturdayNext, sunday, live] = await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll([
        { place: "court-1", kind: "score", payload: scorePayload(1), eventKey: "saturday", createdAt: 1 },
        { place: "court-1", kind: "score", payload: scorePayload(2), eventKey: "saturday", createdAt: 2 },
        { place: "court-1", kind: "score", payload: scorePayload(3), eventKey: "sunday", createdAt: 3 },
        { place: "court-1", kind: "score", payload: scorePayload(4), eventKey: "monday", createdAt: 4 }
      ]))
    const db = new DatabaseSync(outboxFile(stateDirectory))
    db.prepare("UPDATE items SET payload = '[1]' WHERE id IN (?, ?)").run(saturday!.id, live!.id)
    db.close()
    const heads = await runWithOutbox(stateDirectory, (outbox) => outbox.scoreHeads("court-1", { eventKey: "monday" }))
    expect(ids(heads)).toEqual({ latest: undefined, oldestLive: undefined, oldestPast: saturdayNext!.id, liveEventKey: "monday" })
    expect(sunday!.id).toBeGreaterThan(saturdayNext!.id)
    expect(withDatabase(stateDirectory, (d) => d.prepare("SELECT state FROM items WHERE id = ?").get(saturday!.id)?.["state"])).toBe("pending")
  })
})
