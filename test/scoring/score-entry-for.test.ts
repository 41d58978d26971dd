import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { ScoreChange } from "../../src/scoring/score-change.ts"
import { scoreEntryFor } from "../../src/scoring/score-entry-for.ts"

const at = 1_763_800_000_123

describe("tennis entries", () => {
  it("maps shown points 0/15/30/40/AD to 0..4 and keeps per-set games", () => {
    const reading: Reading = { receivedAt: at, gamePoints: ["AD", "40"], sets: [[6, 4], [3, 2]], period: 2 }
    expect(scoreEntryFor("tennis", reading)).toEqual({
      timeStamp: at, left: 1, right: 0, period: 2,
      scoreValue: { gameScores: [[6, 4], [3, 2]], pointScore: [4, 3] }
    })
  })

  it("keeps tie-break points as plain counts, above 4 included", () => {
    const reading: Reading = { receivedAt: at, gamePoints: [7, 6], tieBreak: true, sets: [[6, 6]], setsWon: [0, 0] }
    expect(scoreEntryFor("tennis", reading)).toMatchObject({ scoreValue: { pointScore: [7, 6] } })
  })

  it("reads numeric 15/30/40 outside a tie-break as shown points", () => {
    const reading: Reading = { receivedAt: at, home: 30, away: 15, sets: [[1, 0]] }
    expect(scoreEntryFor("tennis", reading)).toMatchObject({ scoreValue: { pointScore: [2, 1] } })
  })

  it("makes no entry before the board has shown games and points", () => {
    expect(scoreEntryFor("tennis", { receivedAt: at, gamePoints: ["15", "0"] })).toBeUndefined()
    expect(scoreEntryFor("tennis", { receivedAt: at, sets: [[1, 0]] })).toBeUndefined()
    expect(scoreEntryFor("tennis", { receivedAt: at, gamePoints: ["15", "X" as "0"], sets: [[1, 0]] })).toBeUndefined()
  })
})

describe("volleyball entries", () => {
  it("puts the live points into the current set", () => {
    const reading: Reading = { receivedAt: at, home: 18, away: 21, period: 2, sets: [[25, 20]] }
    expect(scoreEntryFor("volleyball", reading)).toEqual({ timeStamp: at, scoreValue: { gameScores: [[25, 20], [18, 21]] } })
  })

  it("uses the per-set table alone when live points are absent", () => {
    const reading: Reading = { receivedAt: at, sets: [[25, 20], [3, 5]] }
    expect(scoreEntryFor("volleyball", reading)).toEqual({ timeStamp: at, scoreValue: { gameScores: [[25, 20], [3, 5]] } })
  })
})

describe("generic entries", () => {
  it("carries left, right and period for any other sport", () => {
    expect(scoreEntryFor("basketball", { receivedAt: at, home: 41, away: 96, period: 3, clock: "5:00" }))
      .toEqual({ timeStamp: at, left: 41, right: 96, period: 3 })
  })

  it("needs both scores", () => {
    expect(scoreEntryFor("basketball", { receivedAt: at, home: 41 })).toBeUndefined()
  })
})

describe("score change", () => {
  it("ignores a clock tick and a new timestamp, sees a new score", () => {
    const first = scoreEntryFor("basketball", { receivedAt: at, home: 2, away: 0, period: 1, clock: "9:59" })!
    const tick = scoreEntryFor("basketball", { receivedAt: at + 1000, home: 2, away: 0, period: 1, clock: "9:58" })!
    const basket = scoreEntryFor("basketball", { receivedAt: at + 2000, home: 2, away: 3, period: 1 })!
    const change = new ScoreChange(undefined)
    expect(change.isChange(first)).toBe(true)
    change.remember(first)
    expect(change.isChange(tick)).toBe(false)
    expect(change.isChange(basket)).toBe(true)
  })

  it("after a restart, the same score as the last persisted entry is not a change", () => {
    const persisted = scoreEntryFor("basketball", { receivedAt: at, home: 10, away: 8, period: 2 })!
    const again = scoreEntryFor("basketball", { receivedAt: at + 60_000, home: 10, away: 8, period: 2 })!
    expect(new ScoreChange(persisted).isChange(again)).toBe(false)
  })
})
