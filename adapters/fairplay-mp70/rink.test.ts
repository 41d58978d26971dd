import { describe, expect, it } from "vitest"
import { replay } from "../../src/replay/replay.ts"
import { clockPacket, statePacket } from "./encode.ts"
import { ascii } from "../../scripts/support/bytes.ts"
import { concat, decoderFor, effectRuns, gameStream, laidOut, positionEffects, STX, withBytes } from "./test-support.ts"


// Variant A, as the real console sent it: C 11 bytes (clock 2–5, period 7, "60" at 8–9).
const rinkClock = laidOut([[0, `${STX}C`], [2, " 845"], [6, " "], [7, "2"], [8, "60"]], 11)

// H 55 bytes: home 13, guest 39, penalty slots player + time MSS at 16, 22 (home) and 42, 48 (guest).
const rinkState = laidOut([
  [0, `${STX}H`],
  [2, " ".repeat(11)],
  [13, "3"],
  [14, "  "],
  [16, "24 245"],
  [22, "      "],
  [28, " ".repeat(11)],
  [39, "5"],
  [40, "  "],
  [42, "07 530"],
  [48, "      "]
], 55)

const rinkPenalties = { home: [{ player: 24, remaining: "2:45" }], away: [{ player: 7, remaining: "5:30" }] }

const fields = ({ receivedAt: _, ...rest }: { receivedAt: number }) => rest

/** The readings of `packets` pushed one by one into one decoder, without their stamps. */
const readAll = (packets: ReadonlyArray<Uint8Array>, sport = "hockey") => {
  const d = decoderFor(sport)
  return { readings: packets.map((p) => d.push(p, 1).map(fields)), stats: d.stats }
}

describe("fairplay-mp70 variant rink (the default): packets as a real MP-70 sent them", () => {
  it("decodes the C packet (clock, period) and then the H packet (scores, penalties) with that period", () => {
    const { readings, stats } = readAll([rinkClock, rinkState])
    expect(readings).toEqual([[{ clock: "8:45", period: 2 }], [{ home: 3, away: 5, period: 2, penalties: rinkPenalties }]])
    expect(stats).toEqual({ frames: 2, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("builds with the encoder what the notes describe", () => {
    expect(clockPacket({ clock: "8:45", period: 2 })).toEqual(rinkClock)
    expect(statePacket({ home: 3, away: 5, penalties: rinkPenalties })).toEqual(rinkState)
  })

  it("reads each byte of the C packet as the notes say: clock 2–5, period 7; 6 and the 60 at 8–9 read as nothing", () => {
    expect(positionEffects(() => decoderFor(), rinkClock, [2, 3, 4, 5, 6, 7, 8, 9]))
      .toEqual(effectRuns([[2, 5, "clock"], [6, 6, "same"], [7, 7, "period"], [8, 9, "same"]]))
  })

  it("reads each byte of the H packet as the notes say: scores around 13 and 39, four penalty slots, blanks", () => {
    const positions = Array.from({ length: 52 }, (_, i) => i + 2)
    expect(positionEffects(() => decoderFor(), rinkState, positions, "1", rinkClock)).toEqual(effectRuns([
      [2, 10, "same"],
      // A digit beside a score: the number runs past its bytes.
      [11, 11, "bad"],
      [12, 14, "home"],
      [15, 15, "bad"],
      [16, 17, "penalties"],
      // The blank between player and time.
      [18, 18, "bad"],
      [19, 21, "penalties"],
      // One byte in an empty slot is neither blank nor a penalty.
      [22, 27, "bad"],
      [28, 36, "same"],
      [37, 37, "bad"],
      [38, 40, "away"],
      [41, 41, "bad"],
      [42, 43, "penalties"],
      [44, 44, "bad"],
      // 45 is the guest penalty's minutes: never the period.
      [45, 47, "penalties"],
      [48, 53, "bad"]
    ]))
  })

  it("never reads a penalty time at byte 45 (1:00–9:59) as the period", () => {
    const d = decoderFor()
    d.push(rinkClock, 0)
    for (let minutes = 0; minutes <= 9; minutes++) {
      const [reading] = d.push(withBytes(rinkState, { 45: String(minutes) }), 1)
      expect(reading, `${minutes}:30 at 45`).toMatchObject({ period: 2, penalties: { away: [{ player: 7, remaining: `${minutes}:30` }] } })
    }
    expect(d.stats.badFrames).toBe(0)
  })

  it("reads two-digit scores in either place of the window (12–13 or 13–14), and three digits", () => {
    const d = decoderFor()
    d.push(rinkClock, 0)
    const shown = [["12 ", "10 "], [" 12", " 10"], ["123", "999"], [" 7 ", " 0 "]].map(([home, away]) => d.push(withBytes(rinkState, { 12: home!, 38: away! }), 1)[0])
    expect(shown.map((r) => [r?.home, r?.away])).toEqual([[12, 10], [12, 10], [123, 999], [7, 0]])
    expect(statePacket({ home: 12, away: 10 }, { twoDigits: "left" }).subarray(12, 15)).toEqual(ascii("12 "))
    expect(statePacket({ home: 12, away: 10 }).subarray(38, 41)).toEqual(ascii(" 10"))
  })

  it("drops packets with split digits, letters, a number running past its bytes, or one score blank", () => {
    const bad = [
      withBytes(rinkState, { 12: "1 2" }),
      withBytes(rinkState, { 38: "4 0" }),
      withBytes(rinkState, { 13: "x" }),
      withBytes(rinkState, { 39: "O" }),
      withBytes(rinkState, { 13: "-" }),
      withBytes(rinkState, { 39: "\u0000" }),
      // "12" at 14–15: reading " 1" at 12–14 would be a guess.
      withBytes(rinkState, { 13: " 12" }),
      withBytes(rinkState, { 11: "7" }),
      withBytes(rinkState, { 39: " " }),
      withBytes(rinkState, { 16: "2x 245" }),
      withBytes(rinkState, { 42: "07 5A0" }),
      withBytes(rinkState, { 22: "12    " }),
      withBytes(rinkState, { 48: "   " + "1 5" }),
      withBytes(rinkState, { 42: "07 560" }),
      withBytes(rinkClock, { 7: "X" }),
      withBytes(rinkClock, { 7: "o" }),
      withBytes(rinkClock, { 2: "1075" }),
      withBytes(rinkClock, { 2: "9 59" })
    ]
    const d = decoderFor()
    d.push(rinkClock, 0)
    expect(d.push(concat(...bad), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: bad.length, skippedBytes: 0 })
    // A dropped C packet changed nothing: the next H still carries period 2.
    expect(d.push(rinkState, 2)).toMatchObject([{ home: 3, away: 5, period: 2 }])
  })

  it("reads penalties in all four slots, with or without a player number, blank-padded minutes too", () => {
    const d = decoderFor()
    d.push(rinkClock, 0)
    const all = withBytes(rinkState, { 16: "04 100", 22: "   200", 42: "11 959", 48: "99  05" })
    expect(d.push(all, 1)[0]?.penalties).toEqual({
      home: [{ player: 4, remaining: "1:00" }, { remaining: "2:00" }],
      away: [{ player: 11, remaining: "9:59" }, { player: 99, remaining: "0:05" }]
    })
    const none = withBytes(rinkState, { 16: " ".repeat(12), 42: " ".repeat(12) })
    expect(d.push(none, 2)).toEqual([{ receivedAt: 2, home: 3, away: 5, period: 2, penalties: { home: [], away: [] } }])
    expect(statePacket({ home: 3, away: 5, penalties: { home: [{ player: 4, remaining: "1:00" }, { remaining: "2:00" }] } }).subarray(16, 28)).toEqual(ascii("04 100   200"))
  })
})

describe("fairplay-mp70 variant rink: the period comes from C packets", () => {
  const clockWith = (period: string, clock = " 845") => withBytes(rinkClock, { 2: clock, 7: period })

  it("carries the C packet's period into each H reading until a C packet changes it", () => {
    const { readings } = readAll([clockWith("1"), rinkState, clockWith("1", " 844"), rinkState, clockWith("2", "2000"), clockWith("2", "1959"), rinkState])
    expect(readings).toEqual([
      [{ clock: "8:45", period: 1 }],
      [{ home: 3, away: 5, period: 1, penalties: rinkPenalties }],
      [{ clock: "8:44", period: 1 }],
      [{ home: 3, away: 5, period: 1, penalties: rinkPenalties }],
      // The period changed while the score was known: the whole state, so the change makes its entry.
      [{ clock: "20:00", period: 2, home: 3, away: 5 }],
      [{ clock: "19:59", period: 2 }],
      [{ home: 3, away: 5, period: 2, penalties: rinkPenalties }]
    ])
  })

  it("shows no score before a C packet gave the period (never period 0 for a moment), then the whole state", () => {
    const { readings } = readAll([rinkState, rinkState, clockWith("1")])
    expect(readings).toEqual([[{ penalties: rinkPenalties }], [{ penalties: rinkPenalties }], [{ clock: "8:45", period: 1, home: 3, away: 5 }]])
  })

  it("reads O as the sport's overtime period, and a blank period byte as none shown", () => {
    expect(readAll([clockWith("O"), rinkState]).readings[1]).toMatchObject([{ period: 4 }])
    expect(readAll([clockWith("O"), rinkState], "basketball").readings[1]).toMatchObject([{ period: 5 }])
    const blank = readAll([clockWith("3"), rinkState, clockWith(" "), rinkState]).readings
    expect(blank.slice(2)).toEqual([[{ clock: "8:45", home: 3, away: 5 }], [{ home: 3, away: 5, penalties: rinkPenalties }]])
  })

  it("makes one entry per score or period change, none for clocks, penalty clocks or repeated packets", () => {
    const p = (home: number, away: number, penalties = {}) => statePacket({ home, away, penalties })
    const c = (clock: string, period: number) => clockPacket({ clock, period })
    const stream = [
      p(0, 0), c("20:00", 1), c("19:59", 1), p(0, 0), c("19:58", 1),
      p(1, 0), c("15:00", 1), c("15:00", 1), p(1, 0, { away: [{ player: 7, remaining: "2:00" }] }), c("14:59", 1),
      p(1, 0, { away: [{ player: 7, remaining: "1:59" }] }), c("1:00", 1), c("0:00", 1), p(1, 0, { away: [{ player: 7, remaining: "1:00" }] }),
      c("20:00", 2), p(1, 0, { away: [{ player: 7, remaining: "1:00" }] }), c("19:00", 2), p(1, 1, { away: [{ player: 7, remaining: "0:01" }] }), c("18:00", 2), p(1, 1)
    ]
    const entries = [...replay(decoderFor(), "hockey", stream.map((bytes, i) => ({ bytes, receivedAt: i })))]
      .flatMap((r) => (r.type === "entry" ? [r.entry] : []))
    expect(entries).toEqual([
      { timeStamp: 1, left: 0, right: 0, period: 1 },
      { timeStamp: 5, left: 1, right: 0, period: 1 },
      { timeStamp: 14, left: 1, right: 0, period: 2 },
      { timeStamp: 17, left: 1, right: 1, period: 2 }
    ])
  })

  it("reads a game's stream: each H packet's score with the period its C packets showed", () => {
    const { bytes, states } = gameStream(21, 300)
    const readings = decoderFor().push(bytes, 0)
    const scores = readings.filter((r) => r.penalties !== undefined).map(({ home, away, period }) => ({ home, away, period }))
    // The first H packet comes before any C packet: its score waits for the period.
    expect(scores).toEqual([{ home: undefined, away: undefined, period: undefined }, ...states.slice(1)])
    expect(states.some((s) => s.period === 3)).toBe(true)
  })
})
