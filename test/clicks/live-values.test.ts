import { describe, expect, it } from "vitest"
import { liveFields } from "../../src/config/overlay.ts"
import type { GenericEntry, TennisEntry, VolleyballEntry } from "../../src/domain/score-entry.ts"
import { fillLiveValues, liveFieldsFor, type LiveFields } from "../../src/clicks/live-values.ts"
import { overlayForClick } from "../../src/clicks/overlay-for-click.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { Effect } from "effect"

const scoreFields: LiveFields = {
  homeTeam: "Lions",
  awayTeam: "Tigers",
  homeScore: 3,
  awayScore: 12,
  period: 2,
  team: "Tigers",
  teamScore: 12
}

const everyField: LiveFields = {
  ...scoreFields,
  homePenalties: "#12 1:00",
  awayPenalties: "",
  teamPenalties: "",
  homeFouls: 4,
  awayFouls: 5,
  teamFouls: 5,
  homeTimeouts: 1,
  awayTimeouts: 2,
  teamTimeouts: 2,
  lane: 4,
  place: 1,
  time: "1:02.34",
  event: 12,
  heat: 3,
  swimmer: "A. Swimmer"
}

describe("fillLiveValues", () => {
  it("fills every live field the config accepts", () => {
    const values = Object.fromEntries(liveFields.map((field) => [field, `<{{${field}}}>`]))
    const filled = fillLiveValues(values, everyField)
    for (const field of liveFields) expect(filled[field]).toBe(`<${String(everyField[field])}>`)
  })

  it("fills several fields in one value, with spaces inside the braces", () => {
    expect(fillLiveValues({ line: "{{homeTeam}} {{ homeScore }} – {{awayScore}} {{awayTeam}} (P{{period}})" }, everyField))
      .toEqual({ line: "Lions 3 – 12 Tigers (P2)" })
  })

  it("turns missing and unknown fields into empty strings, never a literal {{…}}", () => {
    const filled = fillLiveValues({ a: "{{homeTeam}}", b: "x{{period}}y", c: "{{nonsense}}", d: "{{toString}}", e: "{{}}" }, { period: 0 })
    expect(filled).toEqual({ a: "", b: "x0y", c: "", d: "", e: "" })
  })

  it("leaves values without live fields and single braces alone", () => {
    expect(fillLiveValues({ title: "Final {set}", empty: "" }, everyField)).toEqual({ title: "Final {set}", empty: "" })
  })
})

const teams = { homeTeam: "Lions", awayTeam: "Tigers" }
const generic = (left: number, right: number, period: number): GenericEntry => ({ timeStamp: 1, left, right, period })

describe("liveFieldsFor", () => {
  it("takes a generic entry's left, right and period, and the clicked team's name and score", () => {
    expect(liveFieldsFor(generic(3, 12, 2), teams, "away")).toEqual(scoreFields)
    expect(liveFieldsFor(generic(3, 12, 2), teams, "home")).toMatchObject({ team: "Lions", teamScore: 3 })
  })

  it("leaves team and teamScore out for a neutral click", () => {
    const live = liveFieldsFor(generic(3, 12, 2), teams, "none")
    expect(live).not.toHaveProperty("team")
    expect(live).not.toHaveProperty("teamScore")
    expect(live.homeScore).toBe(3)
  })

  it("leaves the period out when the controller sends none (period 0)", () => {
    expect(liveFieldsFor(generic(1, 0, 0), teams, "home")).not.toHaveProperty("period")
  })

  it("shows tennis as the current set's games and the set number, not sets won", () => {
    const entry: TennisEntry = {
      timeStamp: 1,
      left: 1,
      right: 0,
      period: 2,
      scoreValue: { gameScores: [[6, 4], [2, 5]], pointScore: [3, 1] }
    }
    expect(liveFieldsFor(entry, teams, "home")).toEqual({
      homeTeam: "Lions", awayTeam: "Tigers", homeScore: 2, awayScore: 5, period: 2, team: "Lions", teamScore: 2
    })
  })

  it("shows volleyball as the current set's points, the set number as the period", () => {
    const entry: VolleyballEntry = { timeStamp: 1, scoreValue: { gameScores: [[25, 20], [18, 25], [7, 9]] } }
    expect(liveFieldsFor(entry, teams, "away")).toMatchObject({ homeScore: 7, awayScore: 9, period: 3, teamScore: 9 })
  })

  it("has no scores before the first entry and no names without an event", () => {
    expect(liveFieldsFor(undefined, undefined, "home")).toEqual({})
    const filled = fillLiveValues({ v: "{{team}}: {{teamScore}}" }, liveFieldsFor(undefined, { homeTeam: "Lions" }, "away"))
    expect(filled).toEqual({ v: ": " })
  })
})

describe("liveFieldsFor with what the board shows beside the score", () => {
  const entry: GenericEntry = { timeStamp: 1, left: 2, right: 1, period: 3 }
  const board = {
    penalties: { home: [{ player: 12, remaining: "1:00" }, { remaining: "0:45" }], away: [] },
    teamFouls: [4, 5] as const,
    timeouts: [1, 0] as const
  }

  it("writes each team's penalties as text, and the clicked team's as team…", () => {
    const fields = liveFieldsFor(entry, { homeTeam: "Lions", awayTeam: "Tigers" }, "home", board)
    expect(fields).toMatchObject({
      homePenalties: "#12 1:00, 0:45",
      awayPenalties: "",
      teamPenalties: "#12 1:00, 0:45",
      homeFouls: 4,
      awayFouls: 5,
      teamFouls: 4,
      homeTimeouts: 1,
      awayTimeouts: 0,
      teamTimeouts: 1
    })
    expect(liveFieldsFor(entry, undefined, "away", board)).toMatchObject({ teamPenalties: "", teamFouls: 5, teamTimeouts: 0 })
  })

  it("leaves them out on a board that does not send them, so they fill in empty", () => {
    const fields = liveFieldsFor(entry, undefined, "home")
    for (const field of ["homePenalties", "awayPenalties", "teamPenalties", "homeFouls", "teamFouls", "homeTimeouts"] as const) {
      expect(fields).not.toHaveProperty(field)
    }
    expect(fillLiveValues({ pen: "[{{homePenalties}}]" }, fields)).toEqual({ pen: "[]" })
  })
})

describe("liveFieldsFor a finish click", () => {
  const finish = { lane: 4, place: 2, time: "1:02.34", event: 12, heat: 3 }

  it("takes the swimmer's lane, place, time, event and heat; no score or team of its own", () => {
    expect(liveFieldsFor(undefined, undefined, "none", {}, finish)).toEqual({ lane: 4, place: 2, time: "1:02.34", event: 12, heat: 3 })
    expect(fillLiveValues({ line: "Lane {{lane}} · {{place}}. · {{time}} · E{{event}} H{{heat}}" }, liveFieldsFor(undefined, undefined, "none", {}, finish)))
      .toEqual({ line: "Lane 4 · 2. · 1:02.34 · E12 H3" })
  })

  it("leaves event, heat and swimmer empty when the board showed none, and every finish field empty on other clicks", () => {
    const bare = fillLiveValues({ v: "[{{event}}/{{heat}}/{{swimmer}}]" }, liveFieldsFor(undefined, undefined, "none", {}, { lane: 1, place: 1, time: "28.91" }))
    expect(bare).toEqual({ v: "[//]" })
    const press = liveFieldsFor(generic(3, 12, 2), teams, "home")
    for (const field of ["lane", "place", "time", "event", "heat", "swimmer"] as const) expect(press).not.toHaveProperty(field)
  })
})

describe("LatestBoard", () => {
  it("keeps each place's latest extras field by field: a frame without penalties keeps the last ones", async () => {
    const [after, otherPlace] = await Effect.runPromise(Effect.gen(function*() {
      const board = yield* LatestBoard
      yield* board.record("court-1", { receivedAt: 1, penalties: { home: [{ remaining: "2:00" }], away: [] }, teamFouls: [1, 2] })
      yield* board.record("court-1", { receivedAt: 2, clock: "9:59", period: 2 })
      yield* board.record("court-1", { receivedAt: 3, teamFouls: [2, 2] })
      return [yield* board.current("court-1"), yield* board.current("court-2")] as const
    }).pipe(Effect.provide(LatestBoard.layer)))
    expect(after).toEqual({ penalties: { home: [{ remaining: "2:00" }], away: [] }, teamFouls: [2, 2] })
    expect(otherPlace).toEqual({})
  })
})

describe("overlayForClick", () => {
  it("fills the values and drops templateFile, keeping everything else", () => {
    const overlay = overlayForClick({
      templateSource: "https://example.com/bug.html",
      templateFile: "/etc/scorebridge/bug.html",
      values: { score: "{{homeScore}}-{{awayScore}}", name: "{{team}}" },
      position: { horizontal: "left", vertical: "bottom" },
      heightPercentOfHeight: 12,
      marginPercentOfWidth: 2,
      startTime: 500,
      duration: 4000
    }, liveFieldsFor(generic(3, 12, 2), teams, "home"))
    expect(overlay).toEqual({
      templateSource: "https://example.com/bug.html",
      values: { score: "3-12", name: "Lions" },
      position: { horizontal: "left", vertical: "bottom" },
      heightPercentOfHeight: 12,
      marginPercentOfWidth: 2,
      startTime: 500,
      duration: 4000
    })
  })

  it("passes an image overlay through unchanged", () => {
    const image = { imageSource: "https://example.com/logo.png", widthPercentOfWidth: 15 }
    expect(overlayForClick(image, everyField)).toEqual(image)
  })
})
