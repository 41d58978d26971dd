import { describe, expect, it } from "vitest"
import { stramatel452m } from "./index.ts"
import { sportLayouts } from "./layouts.ts"
import { concat, decoderFor, rawFrame, shown } from "./test-support.ts"

/**
 * Each byte position of each sport code, from the protocol note's tables
 * (offsets from the 0xF8; the vendor's row N is byte N−1), with frames written
 * byte by byte rather than by the encoder.
 */

describe("stramatel-452m 0x33 basketball", () => {
  // Every documented byte set, as a console in a game sends them.
  const full = rawFrame(0x33, {
    3: "1", 4: "0815", 8: "102", 11: " 99", 14: "3", 15: "4", 16: "5", 17: "1", 18: "2", 19: "0", 20: "1", 21: "0",
    22: "123450000000", 34: "000001200000", 46: "45", 48: "14", 50: "011"
  })

  it("reads points 8–10 / 11–13, period 14, team fouls 15/16, time-outs 17/18, clock 4–7", () => {
    expect(shown(decoderFor("basketball"), full)).toEqual([
      { home: 102, away: 99, period: 3, teamFouls: [4, 5], timeouts: [1, 2], clock: "08:15" }
    ])
  })

  it("reads the period from byte 14, whatever else the frame shows", () => {
    const d = decoderFor("basketball")
    const periods = ["1", "2", "3", "4", "5", " "].map((p) => d.push(rawFrame(0x33, { 8: " 50", 11: " 48", 14: p }), 0)[0]?.period)
    expect(periods).toEqual([1, 2, 3, 4, 5, undefined])
  })

  it("rejects a period that is not a digit (an overtime letter is not documented): no entry with a wrong period", () => {
    const d = decoderFor("basketball")
    expect(d.push(rawFrame(0x33, { 8: " 50", 11: " 48", 14: "E" }), 0)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 1 })
  })

  it("reads netball (same code): 2-digit points at 9–10 / 12–13 with bytes 8 and 11 blank, no fouls", () => {
    expect(shown(decoderFor("basketball"), rawFrame(0x33, { 3: "2", 4: "1000", 9: "45", 12: " 8", 14: "2", 19: "0", 20: "1" })))
      .toEqual([{ home: 45, away: 8, period: 2, clock: "10:00" }])
  })

  it("never reads the shot clock (48–49, tenths as a letter), the individual fouls or the time-out clock", () => {
    const d = decoderFor("basketball")
    const variants = [" 8", "24", "6D", "@4", "\x7f\x7f"].map((shot) => rawFrame(0x33, { 8: " 50", 11: " 48", 14: "2", 48: shot }))
    const fouls = rawFrame(0x33, { 8: " 50", 11: " 48", 14: "2", 21: "x", 22: "5X5X5X5X5X5X", 34: "????????????", 46: "::" })
    const readings = d.push(concat(...variants, fouls), 0)
    expect(readings.map(({ receivedAt: _, ...r }) => r)).toEqual(Array(6).fill({ home: 50, away: 48, period: 2 }))
    expect(d.stats).toMatchObject({ frames: 6, badFrames: 0 })
  })

  it("leaves out team fouls or time-outs that are not two digits, and keeps the score", () => {
    const d = decoderFor("basketball")
    expect(shown(d, rawFrame(0x33, { 8: " 50", 11: " 48", 15: "3 ", 17: "P1" }))).toEqual([{ home: 50, away: 48 }])
  })
})

describe("stramatel-452m 0x35 handball, football, futsal, hockey, floorball", () => {
  const full = rawFrame(0x35, {
    4: "1512", 9: "12", 12: " 9", 14: "2", 15: "3", 16: "6", 17: "1", 18: "0", 19: "0", 20: "1",
    22: "200", 25: "145", 28: " 30", 35: "200", 38: "115", 41: "059"
  })

  it("reads score 9–10 / 12–13, period 14, time-outs 17/18, clock 4–7 and the running penalties", () => {
    expect(shown(decoderFor("hockey"), full)).toEqual([{
      home: 12,
      away: 9,
      period: 2,
      timeouts: [1, 0],
      clock: "15:12",
      // Home flag 3 = slots 1+2+3; away flag 6 = slots 2+3.
      penalties: { home: [{ remaining: "2:00" }, { remaining: "1:45" }, { remaining: "0:30" }], away: [{ remaining: "1:15" }, { remaining: "0:59" }] }
    }])
  })

  it("is read the same for every sport that shares the code", () => {
    const sports = Object.keys(sportLayouts).filter((sport) => sportLayouts[sport] === "handball")
    expect(sports.sort()).toEqual(["futsal", "handball", "hockey", "soccer", "unihockey"])
    const expected = shown(decoderFor("hockey"), full)
    for (const sport of sports) expect(shown(decoderFor(sport), full), sport).toEqual(expected)
  })

  // Slot clocks 1:00, 2:00, 3:00 so each listed time names its slot.
  const slots = { 22: "100", 25: "200", 28: "300", 35: "100", 38: "200", 41: "300" }
  const byFlag: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["1", ["1:00"]],
    ["2", ["1:00", "2:00"]],
    ["3", ["1:00", "2:00", "3:00"]],
    ["4", ["2:00"]],
    ["5", ["3:00"]],
    ["6", ["2:00", "3:00"]],
    ["7", ["1:00", "3:00"]],
    [" ", []],
    ["0", []],
    ["8", []],
    ["9", []],
    ["A", []],
    ["\x00", []],
    ["\xb1", []]
  ]

  it.each(byFlag)("lists the slots flag %j says run, home (15) and away (16)", (flag, times) => {
    const d = decoderFor("handball")
    const penalties = times.map((remaining) => ({ remaining }))
    expect(d.push(rawFrame(0x35, { 9: " 1", 12: " 0", 15: flag, ...slots }), 0)[0]?.penalties).toEqual({ home: penalties, away: [] })
    expect(d.push(rawFrame(0x35, { 9: " 1", 12: " 0", 16: flag, ...slots }), 0)[0]?.penalties).toEqual({ home: [], away: penalties })
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0 })
  })

  it("when flags and clocks disagree, lists only running slots whose clock reads, and never touches the score", () => {
    const d = decoderFor("hockey")
    const frames = [
      // Flag 3 (all run) but slot 2 blank and slot 3 not a time.
      rawFrame(0x35, { 9: " 4", 12: " 2", 15: "3", 22: "200", 25: "   ", 28: "2x0" }),
      // No flag, clocks still showing (a console may leave the last value): nothing runs.
      rawFrame(0x35, { 9: " 4", 12: " 2", 15: " ", 16: "0", 22: "200", 35: "145" }),
      // Seconds past 59, or minutes with a blank tens of seconds: not a time.
      rawFrame(0x35, { 9: " 4", 12: " 2", 15: "7", 22: "170", 28: "2 5" })
    ]
    expect(shown(d, concat(...frames))).toEqual([
      { home: 4, away: 2, penalties: { home: [{ remaining: "2:00" }], away: [] } },
      { home: 4, away: 2, penalties: { home: [], away: [] } },
      { home: 4, away: 2, penalties: { home: [], away: [] } }
    ])
    expect(d.stats).toMatchObject({ frames: 3, badFrames: 0 })
  })

  it("reads a blank-padded penalty clock (` 45` = 0:45, `  5` = 0:05)", () => {
    const reading = decoderFor("hockey").push(rawFrame(0x35, { 9: " 1", 12: " 1", 15: "2", 22: " 45", 25: "  5" }), 0)[0]
    expect(reading?.penalties?.home).toEqual([{ remaining: "0:45" }, { remaining: "0:05" }])
  })

  it("never takes a penalty clock or the blank bytes for the score", () => {
    const d = decoderFor("hockey")
    // Byte 8 and 11 are blank in this frame: a 3-digit reading would take "200"-like bytes elsewhere, this one does not.
    const readings = shown(d, rawFrame(0x35, { 8: "9", 11: "9", 9: " 3", 12: " 1", 15: "1", 22: "200", 21: "7", 31: "1234", 44: "123456789" }))
    expect(readings).toMatchObject([{ home: 3, away: 1 }])
  })

  it("rejects a score that is not digits, or half blank", () => {
    const d = decoderFor("handball")
    expect(d.push(concat(rawFrame(0x35, { 9: "1O", 12: " 1" }), rawFrame(0x35, { 9: "12", 12: "  " })), 0)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 2 })
  })
})

describe("stramatel-452m 0x36 volleyball", () => {
  it("reads time-outs 17/18 and leaves the clock out while byte 21 says it shows the time of day", () => {
    const match = { 4: "0512", 9: "18", 12: "21", 14: "2", 15: "1", 16: "0", 17: "1", 18: "2", 24: "2520", 50: "3" }
    const d = decoderFor("volleyball")
    expect(shown(d, concat(rawFrame(0x36, { ...match, 21: "0" }), rawFrame(0x36, { ...match, 4: "1432", 21: "1" })))).toEqual([
      { home: 18, away: 21, period: 2, setsWon: [1, 0], sets: [[25, 20], [18, 21]], serve: "away", timeouts: [1, 2], clock: "05:12" },
      { home: 18, away: 21, period: 2, setsWon: [1, 0], sets: [[25, 20], [18, 21]], serve: "away", timeouts: [1, 2] }
    ])
  })

  it("reads the four set slots 24–39 (home 2 digits, away 2 digits) and serve 1–4 at 50", () => {
    const d = decoderFor("volleyball")
    const serves = ["1", "2", "3", "4", "0", " "].map((s) => d.push(rawFrame(0x36, { 9: " 1", 12: " 1", 14: "1", 50: s }), 0)[0]?.serve)
    expect(serves).toEqual(["home", "home", "away", "away", undefined, undefined])
    const fifth = rawFrame(0x36, { 9: "14", 12: "12", 14: "5", 15: "2", 16: "2", 24: "2520", 28: "2325", 32: "2518", 36: "1925" })
    expect(d.push(fifth, 0)[0]?.sets).toEqual([[25, 20], [23, 25], [25, 18], [19, 25], [14, 12]])
  })
})

describe("stramatel-452m 0x39 tennis", () => {
  it("reads points 9–10 / 12–13, set 14, sets won 15/16, games 22–23 / 35–36, set slots 24–31 and 37–44, serve 50, tie-break 52", () => {
    const f = rawFrame(0x39, { 9: "40", 12: "AD", 14: "4", 15: "2", 16: "1", 22: " 2", 35: " 1", 24: " 6 4", 28: " 6 7", 37: " 7 5", 50: "4" })
    expect(shown(decoderFor("tennis"), f)).toEqual([{
      gamePoints: ["40", "AD"],
      tieBreak: false,
      period: 4,
      setsWon: [2, 1],
      sets: [[6, 4], [6, 7], [7, 5], [2, 1]],
      serve: "away"
    }])
    const tieBreak = rawFrame(0x39, { 9: " 5", 12: " 3", 14: "1", 22: " 6", 35: " 6", 52: "1" })
    expect(shown(decoderFor("tennis"), tieBreak)).toEqual([{ gamePoints: [5, 3], tieBreak: true, period: 1, sets: [[6, 6]] }])
  })

  it("has no match clock: bytes 4–7 are never read", () => {
    expect(shown(decoderFor("tennis"), rawFrame(0x39, { 4: "1234", 9: "15", 12: " 0", 14: "1", 22: " 0", 35: " 0" }))[0]).not.toHaveProperty("clock")
  })
})

describe("stramatel-452m clock forms (bytes 4–7)", () => {
  const forms: ReadonlyArray<readonly [string, string | undefined]> = [
    ["1234", "12:34"],
    [" 839", "8:39"],
    ["0839", "08:39"],
    ["  05", "0:05"],
    ["346 ", "34.6"],
    ["066 ", "6.6"],
    [" 66 ", "6.6"],
    ["  5 ", "0.5"],
    ["    ", undefined],
    ["12a4", undefined],
    ["1275", undefined],
    ["1 34", undefined],
    ["3 6 ", undefined]
  ]

  it.each([["basketball", 0x33], ["hockey", 0x35], ["volleyball", 0x36]] as const)(
    "reads MMSS, ` MSS` and `SSt ` in %s frames, and leaves an unreadable clock out",
    (sport, code) => {
      const d = decoderFor(sport)
      for (const [text, clock] of forms) {
        // Units digits of the score: the same bytes in the 3-digit and the 2-digit fields.
        const reading = d.push(rawFrame(code, { 4: text, 10: "1", 13: "2" }), 0)[0]
        expect(reading?.clock, JSON.stringify(text)).toBe(clock)
      }
      expect(d.stats).toMatchObject({ frames: forms.length, badFrames: 0 })
    }
  )
})

describe("stramatel-452m type codes", () => {
  const codes = {
    basketball: 0x33,
    hockey: 0x35,
    volleyball: 0x36,
    tennis: 0x39
  } as const
  /** Not read by any place: individual points, names, messages, stopwatch, time setting, training, LED test, table tennis, badminton. */
  const neverRead = [0x37, 0x38, 0x77, 0x62, 0x4d, 0x43, 0x9a, 0x99, 0x9c, 0x66, 0x3a, 0x6c]
  const unknown = [0x00, 0x34, 0x41, 0xf8, 0xff]

  it.each(Object.entries(codes))("a %s place decodes its code and skips every other frame as bus traffic, counted", (sport, code) => {
    const d = decoderFor(sport)
    const others = [...Object.values(codes).filter((c) => c !== code), ...neverRead, ...unknown]
    // Digits everywhere a score could be, so a frame read by mistake would show.
    const digits = { 8: "123", 11: "456", 9: "23", 12: "56", 14: "1", 22: " 1", 35: " 1" }
    const stream = concat(...others.map((c) => rawFrame(c, digits)), rawFrame(code, { 9: "15", 12: "30", 14: "1", 22: " 0", 35: " 0" }))
    const readings = d.push(stream, 0)
    expect(readings).toHaveLength(1)
    expect(d.stats).toEqual({ frames: 1, badFrames: 0, overlong: 0, skippedBytes: 54 * others.length })
  })

  it("reads a code mapped with sportCodes for every sport that shares its layout", () => {
    const d = decoderFor("unihockey", { sportCodes: { "0x46": "hockey" } })
    expect(shown(d, concat(rawFrame(0x46, { 9: " 3", 12: " 2", 14: "1" }), rawFrame(0x35, { 9: " 3", 12: " 3", 14: "1" })))).toMatchObject([
      { home: 3, away: 2, period: 1 },
      { home: 3, away: 3, period: 1 }
    ])
  })

  it("counts sport frames as bad at a place whose sport no layout reads (a sport the service gave, e.g. wrestling for boxing)", () => {
    expect(stramatel452m.sports).not.toContain("wrestling")
    const d = decoderFor("wrestling")
    // Boxing sends 0x35 with warnings at 10 and 13, round at 14: never read as a score.
    expect(d.push(concat(rawFrame(0x35, { 10: "1", 13: "2", 14: "3" }), rawFrame(0x77, { 2: "NAMES" })), 0)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 1, skippedBytes: 54 })
  })

  it("reads the sports the service has codes for; American football, table tennis and badminton are not among them", () => {
    expect([...stramatel452m.sports].sort()).toEqual(["basketball", "futsal", "handball", "hockey", "soccer", "tennis", "unihockey", "volleyball"])
  })
})
