import { describe, expect, it } from "vitest"
import { buildTimeline, type TimelineInput } from "../../src/timeline/build-timeline.ts"
import type { HighlightMark } from "../../src/timeline/timeline-model.ts"
import { basketballQuarter, clipOf, matchStart, tennisMatch } from "../../scripts/support/timeline-matches.ts"
import { ItemLog } from "../../scripts/support/outbox-item-log.ts"

const generic = (log: ItemLog, event: TimelineInput["event"] = null): TimelineInput => ({
  place: { key: log.place, name: null },
  sport: "handball",
  event,
  recent: log.recent(),
  followUps: log.followUps()
})

const entry = (at: number, left: number, right: number, period = 1) => ({ timeStamp: at, left, right, period })
const min = (n: number) => matchStart + n * 60_000
const byItem = (marks: ReadonlyArray<HighlightMark>, id: number) => marks.find((m) => m.itemId === id)!

describe("the current event", () => {
  it("is the newest event's items; unstamped items join it only when newer than its first item", () => {
    const log = new ItemLog("court-1", "ev-old")
    log.score(entry(min(0), 1, 0))
    log.auto(min(0), "home", ["score"])
    log.eventKey = null
    // Between the matches: nothing running, nothing known.
    const between = log.score(entry(min(30), 0, 0), { state: "warning", lastError: "no event running" })
    // The new match's first entry was captured before any answer named the event; its delivery did.
    const first = log.score(entry(min(60), 1, 0), { result: { eventKey: "ev-new", key: "s1" } })
    const stamped = log.score(entry(min(61), 1, 1), { eventKey: "ev-new" })
    const late = log.score(entry(min(62), 2, 1), { state: "pending" })
    const press = log.press(min(62), "home", { state: "pending" })

    const tl = buildTimeline(generic(log, { key: "ev-new", homeTeam: "Red", awayTeam: "Blue" }))
    expect(tl.eventKey).toBe("ev-new")
    expect(tl.segments[0]!.points.map((p) => p.itemId)).toEqual([first.id, stamped.id, late.id])
    expect(tl.highlights.map((h) => h.itemId)).toEqual([press.id])
    expect(tl.teams).toEqual({ home: "Red", away: "Blue" })
    expect(tl.segments[0]!.points.map((p) => p.itemId)).not.toContain(between.id)
  })

  it("takes team names only from the event it shows", () => {
    const log = new ItemLog("court-1", "ev-1")
    log.score(entry(min(0), 1, 0))
    // The service already runs the next event; nothing of it is stored yet.
    const tl = buildTimeline(generic(log, { key: "ev-2", homeTeam: "Next", awayTeam: "Match" }))
    expect(tl.eventKey).toBe("ev-1")
    expect(tl.teams).toEqual({ home: "Home", away: "Away" })
    expect(tl.place.name).toBe("court-1")
  })

  it("with no event named anywhere, shows every stored item, and nothing at all when there is none", () => {
    const log = new ItemLog("court-1", null)
    log.score(entry(min(0), 1, 0), { state: "warning" })
    log.score(entry(min(1), 2, 0), { state: "warning" })
    const tl = buildTimeline(generic(log))
    expect(tl.eventKey).toBeNull()
    expect(tl.segments[0]!.points).toHaveLength(2)
    expect(tl.backlog).toMatchObject({ warning: 2, delivered: 0, pending: 0 })

    const empty = buildTimeline(generic(new ItemLog()))
    expect(empty).toMatchObject({ segments: [], highlights: [], periods: [], scoreText: null, from: 0, to: 0 })
  })
})

describe("highlight states", () => {
  it("an undo marks its click undone, whatever made it, unless the service found nothing to undo", () => {
    const log = new ItemLog()
    log.score(entry(min(0), 1, 0))
    const press = log.press(min(1), "home")
    const auto = log.auto(min(2), "away", ["tie"])
    const kept = log.press(min(3), "home")
    const pendingUndoOf = log.press(min(4), "away")
    log.undo(press, min(1) + 3_000)
    log.undo(auto, min(2) + 3_000)
    log.undo(kept, min(3) + 3_000, { state: "warning", lastError: "nothing to undo: click made no highlight" })
    log.undo(pendingUndoOf, min(4) + 3_000, { state: "pending" })
    const marks = buildTimeline(generic(log)).highlights
    expect(byItem(marks, press.id)).toMatchObject({ kind: "press", state: "undone", undo: "delivered" })
    expect(byItem(marks, auto.id)).toMatchObject({ kind: "auto", rule: "tie", state: "undone", undo: "delivered" })
    expect(byItem(marks, kept.id)).toMatchObject({ state: "delivered", undo: null })
    expect(byItem(marks, pendingUndoOf.id)).toMatchObject({ state: "undone", undo: "pending" })
  })

  it("merged, skipped, missed, in flight, no highlight and failed each come from the outbox's own record", () => {
    const log = new ItemLog()
    log.score(entry(min(0), 1, 0))
    const press = log.press(min(1) + 2_000, "home")
    const merged = log.auto(min(1), "home", ["score", "lead-change"], { state: "warning", result: { mergedInto: press.id }, lastError: `merged into press #${press.id}` })
    const skipped = log.auto(min(2), "away", ["tie"], { state: "missed", result: { skipped: true }, lastError: "skipped: footage gone" })
    const missed = log.press(min(3), "home", { state: "missed", result: { eventKey: "ev-1", momentKey: "m" }, lastError: "moment m requested 75 s after the press" })
    const inFlight = log.auto(min(4), "home", ["score"], { state: "pending", attempts: 3, lastError: "timeout" })
    const notMade = log.press(min(5), "none", { state: "warning", result: null, lastError: "no event running on court-1" })
    const partly = log.press(min(6), "away", { state: "warning", result: { eventKey: "ev-1", momentKey: "m6", error: "overlay refused" }, lastError: "highlight made, but…" })
    const failed = log.press(min(7), "away", { state: "dead", result: null, lastError: "400 bad request" })
    const marks = buildTimeline(generic(log)).highlights
    expect(byItem(marks, merged.id)).toMatchObject({ kind: "auto", rule: "score", rules: ["score", "lead-change"], state: "merged", mergedInto: press.id, team: "home" })
    expect(byItem(marks, press.id)).toMatchObject({ kind: "press", rule: null, state: "delivered" })
    expect(byItem(marks, skipped.id)).toMatchObject({ state: "skipped", detail: "skipped: footage gone" })
    expect(byItem(marks, missed.id)).toMatchObject({ state: "missed" })
    expect(byItem(marks, inFlight.id)).toMatchObject({ state: "in-flight", detail: "timeout" })
    expect(byItem(marks, notMade.id)).toMatchObject({ state: "not-made", team: "none" })
    expect(byItem(marks, partly.id)).toMatchObject({ state: "delivered", detail: "highlight made, but…" })
    expect(byItem(marks, failed.id)).toMatchObject({ state: "failed", detail: "400 bad request" })
    // In time order, the merged auto before the press that replaced it.
    expect(marks.map((m) => m.at)).toEqual([...marks.map((m) => m.at)].sort((a, b) => a - b))
  })
})

describe("clips", () => {
  it("an accepted click shows what its follow-up found: a clip, none, still awaited, unchecked", () => {
    const log = new ItemLog()
    log.score(entry(min(0), 1, 0))
    const ready = log.press(min(1), "home")
    const partly = log.press(min(2), "away", { state: "warning", result: { eventKey: "ev-1", momentKey: "m3", error: "overlay refused" }, lastError: "highlight made, but…" })
    const none = log.auto(min(3), "home", ["score"])
    const awaited = log.press(min(4), "away")
    const unchecked = log.press(min(5), "home")
    const notFollowed = log.press(min(6), "home")
    log.follow(ready, "clip-ready", clipOf(ready))
    log.follow(partly, "clip-ready", { angles: 1, videoURL: "https://media.example.com/p.mp4" })
    log.follow(none, "no-clip", { reason: "camera 2 was off", momentStatus: "ready" })
    log.follow(awaited, null, null, { reads: 2 })
    log.follow(unchecked, "unchecked", { reason: "the service could not be reached for 30 min" })
    const marks = buildTimeline(generic(log)).highlights
    expect(byItem(marks, ready.id)).toMatchObject({
      state: "clip-ready",
      detail: null,
      clip: {
        outcome: "clip-ready",
        text: "clip ready in 25 s, 2 angles",
        videoURL: `https://media.example.com/clips/${ready.id}.mp4`,
        thumbnailURL: `https://media.example.com/clips/${ready.id}.jpg`,
        angles: 2
      }
    })
    // A 206 keeps what the service refused as its detail.
    expect(byItem(marks, partly.id)).toMatchObject({ state: "clip-ready", detail: "highlight made, but…", clip: { videoURL: "https://media.example.com/p.mp4", angles: 1 } })
    expect(byItem(marks, none.id)).toMatchObject({ state: "no-clip", detail: "camera 2 was off", clip: { outcome: "no-clip", videoURL: null } })
    expect(byItem(marks, awaited.id)).toMatchObject({ state: "delivered", detail: null, clip: { outcome: null, text: "waiting for its clip (2 reads so far)" } })
    expect(byItem(marks, unchecked.id)).toMatchObject({ state: "delivered", detail: "unchecked: the service could not be reached for 30 min" })
    expect(byItem(marks, notFollowed.id)).toMatchObject({ state: "delivered", detail: null, clip: null })
  })

  it("a moment deleted is undone, by an undo or at the service; a click not made keeps its state whatever its follow-up says", () => {
    const log = new ItemLog()
    log.score(entry(min(0), 1, 0))
    const byUndo = log.press(min(1), "home")
    const atService = log.press(min(2), "away")
    const late = log.press(min(3), "home", { state: "missed", result: { eventKey: "ev-1", momentKey: "m4" }, lastError: "moment m4 requested 75 s after the press" })
    log.undo(byUndo, min(1) + 3_000)
    log.follow(byUndo, "deleted", { reason: `undone: the moment was deleted by undo #${byUndo.id + 3}` })
    log.follow(atService, "deleted", { reason: "the moment no longer exists at the service (404): undone or deleted there" })
    log.follow(late, "clip-ready", clipOf(late))
    const marks = buildTimeline(generic(log)).highlights
    expect(byItem(marks, byUndo.id)).toMatchObject({ state: "undone", undo: "delivered", detail: null })
    expect(byItem(marks, atService.id)).toMatchObject({
      state: "undone",
      undo: null,
      detail: "deleted: the moment no longer exists at the service (404): undone or deleted there"
    })
    // Late, but its clip exists: still missed, with the clip on the mark.
    expect(byItem(marks, late.id)).toMatchObject({ state: "missed", detail: "moment m4 requested 75 s after the press", clip: { outcome: "clip-ready" } })
  })
})

describe("a tennis match", () => {
  const match = tennisMatch()
  const tl = buildTimeline(match.input)

  it("has one segment per set on the set's own games, each closed on the score it ended on", () => {
    expect(tl.shape).toBe("tennis")
    expect(tl.segments.map((s) => s.set)).toEqual([1, 2, 3])
    const [set1, set2, set3] = tl.segments
    expect(set1!.points.at(-1)).toMatchObject({ home: 6, away: 2, at: match.set2From })
    expect(set2!.points[0]).toMatchObject({ home: 0, away: 0, at: match.set2From })
    expect(set2!.points.at(-1)).toMatchObject({ home: 7, away: 6, at: match.set3From })
    expect(set3!.points[0]).toMatchObject({ home: 0, away: 0, at: match.set3From })
    // Games never go down within a set.
    for (const s of tl.segments) {
      for (const [a, b] of s.points.slice(1).map((p, i) => [s.points[i]!, p] as const)) {
        expect(b.home).toBeGreaterThanOrEqual(a.home)
        expect(b.away).toBeGreaterThanOrEqual(a.away)
      }
    }
  })

  it("marks set boundaries as periods with their results, the set in play reaching the end of the axis", () => {
    expect(tl.periods.map((p) => [p.label, p.from, p.result])).toEqual([
      ["Set 1", set1From(tl), "6–2"],
      ["Set 2", match.set2From, "7–6"],
      ["Set 3", match.set3From, "0–0"]
    ])
    expect(tl.periods[0]!.to).toBe(match.set2From)
    expect(tl.periods[1]!.to).toBe(match.set3From)
    expect(tl.periods[2]!.to).toBe(tl.to)
  })

  it("marks the tie-break from the first 6–6 to the set's end, with its points", () => {
    expect(tl.tieBreaks).toEqual([{ set: 2, from: match.tieBreakFrom, to: match.set3From, points: "6–5" }])
    const tieBreakPoint = tl.segments[1]!.points.find((p) => p.at > match.tieBreakFrom && p.at < match.set3From)!
    expect(tieBreakPoint.text).toMatch(/^Set 2: 6–6, tie-break \d+–\d+$/)
  })

  it("shows every highlight with its state, the backlog, and the score as the board has it", () => {
    const state = (id: number) => byItem(tl.highlights, id).state
    expect(state(match.items.undonePress.id)).toBe("undone")
    expect(state(match.items.mergedAuto.id)).toBe("merged")
    expect(state(match.items.skippedAuto.id)).toBe("skipped")
    expect(state(match.items.missedPress.id)).toBe("missed")
    expect(state(match.items.inFlightPress.id)).toBe("in-flight")
    expect(state(match.items.clipReady.id)).toBe("clip-ready")
    expect(state(match.items.noClip.id)).toBe("no-clip")
    expect(state(match.items.clipPending.id)).toBe("delivered")
    expect(tl.highlights.filter((h) => h.rule === "set-won" || h.rules.includes("set-won"))).toHaveLength(2)
    expect(tl.highlights.find((h) => h.rule === "set-point")!.at).toBeGreaterThan(match.tieBreakFrom)
    expect(tl.backlog).toMatchObject({ pending: 2, dead: 0, warning: 0 })
    expect(tl.backlog.oldestPendingAt).toBe(tl.segments[2]!.points[1]!.at)
    expect(tl.scoreText).toEqual({ home: "6 7 0 · 30", away: "2 6 0 · 0" })
    expect(tl.teams).toEqual({ home: "A. Alvarez", away: "B. Novak" })
  })
})

const set1From = (tl: ReturnType<typeof buildTimeline>) => tl.segments[0]!.points[0]!.at

describe("a basketball quarter with auto-highlights", () => {
  const quarter = basketballQuarter()
  const tl = buildTimeline(quarter.input)

  it("plots the running score in one segment with the quarters as periods", () => {
    expect(tl.shape).toBe("generic")
    expect(tl.segments).toHaveLength(1)
    expect(tl.periods.map((p) => [p.label, p.from])).toEqual([["Q1", matchStart], ["Q2", quarter.q2From], ["Q3", quarter.q3From]])
    expect(tl.scoreText).toEqual({ home: "37", away: "37" })
    expect(tl.yMax).toBe(37)
  })

  it("has each auto-highlight at its entry's stamp with its rules and state, and the press that merged one", () => {
    const autos = tl.highlights.filter((h) => h.kind === "auto")
    expect(autos.map((a) => ({ at: a.at, rules: a.rules.length > 0 ? a.rules : [a.rule], state: a.state }))).toEqual(quarter.autos)
    const entryTimes = new Set(tl.segments[0]!.points.map((p) => p.at))
    for (const auto of autos) expect(entryTimes.has(auto.at), `auto #${auto.itemId} at an entry`).toBe(true)
    expect(autos.map((a) => a.rule)).toEqual(expect.arrayContaining(["score", "lead-change", "tie", "period-end"]))
    expect(byItem(tl.highlights, quarter.items.mergedAuto.id).mergedInto).toBe(quarter.items.press.id)
    expect(byItem(tl.highlights, quarter.items.inFlightAuto.id)).toMatchObject({ state: "in-flight", team: "none", rule: "period-end" })
    expect(tl.backlog).toEqual({ pending: 1, delivered: 22, warning: 0, dead: 0, oldestPendingAt: quarter.q3From })
  })
})
