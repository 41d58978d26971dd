import { describe, expect, it } from "vitest"
import { scoreEntryFor } from "../../src/scoring/score-entry-for.ts"
import { clockPacket, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import { concat, decoderFor as anyDecoder, effectRuns, laidOut, positionEffects, STX, withBytes } from "./test-support.ts"
import type { FairPlayOptions } from "./options.ts"

/** The 80-byte ProLine description (variant B): chosen with `variant: proline`. */
const proline = { variant: "proline" } as const
const decoderFor = (sport = "hockey", options: FairPlayOptions = {}) => anyDecoder(sport, { ...proline, ...options })


// The protocol note's layout, by hand: home 13–15, guest 29–31, period 45, penalty clocks 52–71.
const docState = laidOut([
  [0, `${STX}H`],
  [2, " ".repeat(11)],
  [13, " 3 "],
  [16, " ".repeat(13)],
  [29, "12 "],
  [32, " ".repeat(13)],
  [45, "2"],
  [46, " ".repeat(6)],
  [52, "0200 "],
  [57, "     "],
  [62, "0145 "],
  [67, "     "],
  [72, " ".repeat(7)]
], 80)

const docClock = laidOut([[0, `${STX}C`], [2, "1500"], [6, " ".repeat(73)]], 80)

describe("fairplay-mp70 variant proline: packets", () => {
  it("decodes the documented state (H) and clock (C) packets", () => {
    const d = decoderFor("hockey")
    expect(d.push(docState, 1000)).toEqual([{ receivedAt: 1000, home: 3, away: 12, period: 2 }])
    expect(d.push(docClock, 1001)).toEqual([{ receivedAt: 1001, clock: "15:00" }])
    expect(d.stats).toEqual({ frames: 2, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("builds with the encoder what the note describes", () => {
    expect(statePacket({ home: 3, away: 12, period: 2, penalties: { home: [{ remaining: "2:00" }], away: [{ remaining: "1:45" }] } }, proline)).toEqual(docState)
    expect(clockPacket({ clock: "15:00" }, proline)).toEqual(docClock)
  })

  it("makes a score entry from H packets only: the clock is never part of a score", () => {
    const d = decoderFor("hockey")
    const [state, clock] = d.push(concat(docState, docClock), 5)
    expect(scoreEntryFor("hockey", state!)).toEqual({ timeStamp: 5, left: 3, right: 12, period: 2 })
    expect(scoreEntryFor("hockey", clock!)).toBeUndefined()
  })

  it("reads scores padded on either side, up to three digits", () => {
    const d = decoderFor("hockey")
    const shown = [" 3 ", "3  ", "  3", "12 ", " 12", "123", "007"].map((score) => d.push(withBytes(docState, { 13: score }), 1)[0]?.home)
    expect(shown).toEqual([3, 3, 3, 12, 12, 123, 7])
    expect(d.stats.badFrames).toBe(0)
  })

  it("drops packets whose score bytes are not digits, and emits nothing for them", () => {
    const d = decoderFor("hockey")
    const bad = [
      withBytes(docState, { 13: "1 2" }),
      withBytes(docState, { 13: "1x " }),
      withBytes(docState, { 29: "-1 " }),
      withBytes(docState, { 30: "\u0000" }),
      withBytes(docState, { 29: "   " }),
      withBytes(docState, { 45: "X" }),
      withBytes(docState, { 45: "o" })
    ]
    expect(d.push(concat(...bad), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: bad.length, skippedBytes: 0 })
  })

  it("leaves out a score or period that is blank (not shown)", () => {
    const d = decoderFor("hockey")
    expect(d.push(withBytes(docState, { 13: "   ", 29: "   ", 45: " " }), 9)).toEqual([{ receivedAt: 9 }])
    expect(d.push(withBytes(docState, { 45: " " }), 9)).toEqual([{ receivedAt: 9, home: 3, away: 12 }])
  })

  it("reads the clock as M:SS, blank-padded minutes as the console sends them", () => {
    const d = decoderFor("hockey")
    const clocks = ["1500", " 959", "0959", "  45", "    "].map((clock) => d.push(withBytes(docClock, { 2: clock }), 1)[0])
    expect(clocks.map((r) => r?.clock)).toEqual(["15:00", "9:59", "09:59", "0:45", undefined])
    expect(clocks.every((r) => r !== undefined && r.home === undefined && r.away === undefined)).toBe(true)
  })

  it("drops clock packets whose digits are wrong", () => {
    const d = decoderFor("hockey")
    const bad = ["1075", "12a4", "9 59", " 9  "].map((clock) => withBytes(docClock, { 2: clock }))
    expect(d.push(concat(...bad), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 4 })
  })
})

describe("fairplay-mp70 variant proline: periods and overtime", () => {
  const periodIn = (sport: string, byte: string, options = {}) =>
    decoderFor(sport, options).push(withBytes(docState, { 45: byte }), 1)[0]?.period

  it("reads a digit as that period in every sport", () => {
    for (const sport of fairplayMp70.sports) {
      expect(["0", "1", "3", "4", "9"].map((digit) => periodIn(sport, digit)), sport).toEqual([0, 1, 3, 4, 9])
    }
  })

  it("reads O as the first period after regulation: hockey 4, basketball 5, futsal and handball 3", () => {
    expect(periodIn("hockey", "O")).toBe(4)
    expect(periodIn("unihockey", "O")).toBe(4)
    expect(periodIn("lacrosse", "O")).toBe(4)
    expect(periodIn("basketball", "O")).toBe(5)
    expect(periodIn("futsal", "O")).toBe(3)
    expect(periodIn("handball", "O")).toBe(3)
  })

  it("keeps 4 and O apart in basketball: the fourth quarter, then overtime", () => {
    const d = decoderFor("basketball")
    expect(d.push(concat(withBytes(docState, { 45: "4" }), withBytes(docState, { 45: "O" })), 1).map((r) => r.period)).toEqual([4, 5])
  })

  it("lets overtimePeriod say what O stands for", () => {
    expect(periodIn("hockey", "O", { overtimePeriod: 5 })).toBe(5)
    // A digit is never remapped.
    expect(periodIn("hockey", "4", { overtimePeriod: 5 })).toBe(4)
  })
})


describe("fairplay-mp70 variant proline: every byte", () => {
  it("reads each byte as the description says: home 13–15, guest 29–31, period 45, penalty clocks not read", () => {
    const positions = Array.from({ length: 77 }, (_, i) => i + 2)
    expect(positionEffects(() => decoderFor(), docState, positions, "4")).toEqual(effectRuns([
      [2, 11, "same"],
      // A digit beside a score: the number runs past its bytes.
      [12, 12, "bad"],
      [13, 15, "home"],
      [16, 16, "bad"],
      [17, 27, "same"],
      [28, 28, "bad"],
      [29, 31, "away"],
      [32, 32, "bad"],
      [33, 44, "same"],
      [45, 45, "period"],
      [46, 78, "same"]
    ]))
    expect(positionEffects(() => decoderFor(), docClock, Array.from({ length: 77 }, (_, i) => i + 2), "4"))
      .toEqual(effectRuns([[2, 5, "clock"], [6, 78, "same"]]))
  })

  it("rejects the short rink packets as bad: sniff tells the layouts apart by it", () => {
    const d = decoderFor()
    expect(d.push(concat(clockPacket({ clock: "8:45", period: 2 }), statePacket({ home: 3, away: 5 })), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 2 })
  })
})
