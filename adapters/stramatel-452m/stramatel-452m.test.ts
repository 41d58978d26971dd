import { describe, expect, it } from "vitest"
import { frame } from "./encode.ts"
import { hex } from "../../scripts/support/bytes.ts"
import { concat, decoderFor, seededRandom, withBytes } from "./test-support.ts"

const decoder = (sport: string) => decoderFor(sport)

// The protocol note's synthetic frame: set 2, 18–21, sets 1–0, set 1 = 25–20, away serving.
const docVolleyballFrame = hex(
  "F8 36 20 20 30 30 30 30 20 31 38 20 32 31 32 31 30 31 32 30 31 30 20 20 32 35 32 30" + " 20".repeat(22) +
    " 33 20 20 0D"
)

describe("stramatel-452m volleyball", () => {
  it("decodes the documented synthetic frame", () => {
    const d = decoder("volleyball")
    expect(docVolleyballFrame.length).toBe(54)
    expect(d.push(docVolleyballFrame, 1000)).toEqual([{
      receivedAt: 1000,
      home: 18,
      away: 21,
      period: 2,
      setsWon: [1, 0],
      sets: [[25, 20], [18, 21]],
      serve: "away",
      // Bytes 17/18 of the synthetic frame are `1` and `2`.
      timeouts: [1, 2],
      clock: "00:00"
    }])
    expect(d.stats).toEqual({ frames: 1, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("round-trips frames built by the encoder, up to a fifth set", () => {
    const fields = {
      home: 9,
      away: 12,
      period: 5,
      setsWon: [2, 2],
      sets: [[25, 20], [23, 25], [25, 18], [19, 25], [9, 12]],
      serve: "home",
      clock: "12:34"
    } as const
    expect(decoder("volleyball").push(frame(0x36, fields), 5)).toEqual([{ receivedAt: 5, ...fields }])
  })

  it("lists finished sets from their slots and ignores slots of sets not reached", () => {
    // Set 1 in play, future slots zero-filled by the console.
    const first = withBytes(frame(0x36, { home: 3, away: 1, period: 1, setsWon: [0, 0] }), { 24: "0000", 28: "0000" })
    expect(decoder("volleyball").push(first, 1)[0]?.sets).toEqual([[3, 1]])
    // A blank (or 0–0) slot for a finished set ends the list: no gap, no invented set.
    const gap = frame(0x36, { home: 5, away: 5, period: 3, sets: [[25, 20]] })
    expect(decoder("volleyball").push(gap, 1)[0]?.sets).toEqual([[25, 20]])
    const zeroed = withBytes(frame(0x36, { home: 5, away: 5, period: 3, sets: [[25, 20]] }), { 28: "0000" })
    expect(decoder("volleyball").push(zeroed, 1)[0]?.sets).toEqual([[25, 20]])
    // Before the match: no set at all.
    expect(decoder("volleyball").push(frame(0x36, { home: 0, away: 0, period: 0 }), 1)[0]?.sets).toBeUndefined()
  })

  it("rejects frames with non-digits or half-blank fields, and emits nothing for them", () => {
    const d = decoder("volleyball")
    const bad = [
      withBytes(docVolleyballFrame, { 9: "1x" }),
      withBytes(docVolleyballFrame, { 12: "  " }),
      withBytes(docVolleyballFrame, { 15: " " }),
      withBytes(docVolleyballFrame, { 24: "2?" }),
      withBytes(docVolleyballFrame, { 14: "-" })
    ]
    expect(d.push(concat(...bad), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: bad.length, skippedBytes: 0 })
  })

  it("reads the clock as MM:SS, or SS.t when byte 7 is blank", () => {
    const d = decoder("volleyball")
    const clocks = ["1234", " 905", "456 ", "    ", "ab12"].map((clock) =>
      d.push(withBytes(docVolleyballFrame, { 4: clock }), 1)[0]?.clock
    )
    expect(clocks).toEqual(["12:34", "9:05", "45.6", undefined, undefined])
  })
})

describe("stramatel-452m tennis", () => {
  it("decodes game points, sets, the set in play and the server", () => {
    const fields = {
      gamePoints: ["40", "AD"],
      period: 3,
      setsWon: [1, 1],
      sets: [[6, 4], [6, 7], [2, 1]],
      serve: "away"
    } as const
    expect(decoder("tennis").push(frame(0x39, fields), 7)).toEqual([{ receivedAt: 7, tieBreak: false, ...fields }])
  })

  it("reads sets 3 and 4 from their own slots", () => {
    const sets = [[6, 4], [4, 6], [7, 5], [3, 6], [1, 0]] as const
    const reading = decoder("tennis").push(frame(0x39, { gamePoints: ["0", "15"], period: 5, sets }), 1)[0]
    expect(reading?.sets).toEqual(sets)
  })

  it("gives plain counts during a tie-break", () => {
    const f = frame(0x39, { gamePoints: [5, 3], tieBreak: true, period: 1, sets: [[6, 6]] })
    expect(decoder("tennis").push(f, 1)[0]).toMatchObject({ tieBreak: true, gamePoints: [5, 3], sets: [[6, 6]] })
  })

  it("rejects game points a console cannot show outside a tie-break", () => {
    const d = decoder("tennis")
    const f = withBytes(frame(0x39, { gamePoints: ["15", "0"], period: 1, sets: [[1, 1]] }), { 9: "20" })
    expect(d.push(f, 1)).toEqual([])
    expect(d.stats.badFrames).toBe(1)
  })
})

describe("stramatel-452m basketball", () => {
  it("decodes 3-digit scores, the period, fouls, time-outs and the clock", () => {
    const d = decoder("basketball")
    const readings = d.push(concat(
      frame(0x33, { home: 102, away: 99, period: 4, clock: "8:15", teamFouls: [5, 3], timeouts: [2, 1], shotClock: "6D" }),
      frame(0x33, { home: 0, away: 7, period: 1, clock: "4.2" })
    ), 3)
    expect(readings).toEqual([
      { receivedAt: 3, home: 102, away: 99, period: 4, teamFouls: [5, 3], timeouts: [2, 1], clock: "8:15" },
      { receivedAt: 3, home: 0, away: 7, period: 1, clock: "4.2" }
    ])
  })
})

describe("stramatel-452m handball family (0x35)", () => {
  it("round-trips frames built by the encoder, penalties included", () => {
    const penalties = { home: ["2:00", undefined, "0:45"], away: [undefined, "1:30"] }
    const f = frame(0x35, { home: 27, away: 30, period: 2, clock: "59.9", timeouts: [1, 1], penalties })
    expect(decoder("handball").push(f, 9)).toEqual([{
      receivedAt: 9,
      home: 27,
      away: 30,
      period: 2,
      clock: "59.9",
      timeouts: [1, 1],
      penalties: { home: [{ remaining: "2:00" }, { remaining: "0:45" }], away: [{ remaining: "1:30" }] }
    }])
    // Flag 7 = slots 1 and 3, flag 4 = slot 2, as the code table gives them.
    expect(String.fromCharCode(f[15]!, f[16]!)).toBe("74")
  })
})

describe("stramatel-452m framing", () => {
  const random = seededRandom(452)
  // Chatter with no frame start, so every byte of it must be counted as skipped.
  const chatter = (length: number) => random.bytes(length).map((b) => (b === 0xf8 ? 0x00 : b))
  const states = Array.from({ length: 30 }, (_, i) => frame(0x36, { home: i, away: 30 - i, period: 1, setsWon: [0, 0] }))
  const stream = concat(...states.flatMap((f, i) => [chatter(i % 7 === 0 ? 0 : random.int(1, 40)), f]))
  const chatterBytes = stream.length - states.length * 54

  it("skips chatter between frames and counts it", () => {
    const d = decoder("volleyball")
    const readings = d.push(stream, 1)
    expect(readings.map((r) => [r.home, r.away])).toEqual(states.map((_, i) => [i, 30 - i]))
    expect(d.stats).toMatchObject({ frames: 30, badFrames: 0, skippedBytes: chatterBytes })
  })

  it("gives identical readings for any chunking from 1 to 100 bytes", () => {
    const whole = decoder("volleyball").push(stream, 1)
    for (let round = 0; round < 25; round++) {
      const d = decoder("volleyball")
      expect(random.chunks(stream, 100).flatMap((piece) => d.push(piece, 1))).toEqual(whole)
      expect(d.stats.skippedBytes).toBe(chatterBytes)
    }
  })

  it("resynchronises on 0xF8 inside data and in chatter", () => {
    // Byte 45 is unused by the volleyball layout; a console may put anything there.
    const inData = frame(0x36, { home: 1, away: 2, period: 1 })
    inData[45] = 0xf8
    const d = decoder("volleyball")
    const readings = d.push(concat(hex("F8 F8 01 F8"), inData, hex("F8 0D F8"), inData), 1)
    expect(readings.map((r) => [r.home, r.away])).toEqual([[1, 2], [1, 2]])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0, skippedBytes: 7 })
  })

  it("drops a truncated frame and decodes the next one", () => {
    const good = frame(0x36, { home: 4, away: 5, period: 1 })
    const d = decoder("volleyball")
    expect(d.push(concat(good.subarray(0, 30), good, good.subarray(0, 53)), 1).map((r) => r.home)).toEqual([4])
    expect(d.push(good, 2).map((r) => r.receivedAt)).toEqual([2])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0, skippedBytes: 30 + 53 })
  })

  it("skips other sports' frames as bus traffic, not as bad frames", () => {
    const d = decoder("volleyball")
    const names = frame(0x33, { home: 1, away: 1 })
    names[1] = 0x77
    expect(d.push(concat(names, frame(0x33, { home: 80, away: 70 }), docVolleyballFrame), 1).map((r) => r.home)).toEqual([18])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: 108 })
  })

  it("stamps a frame cut across reads with the read that brought its 0xF8", () => {
    const f = frame(0x36, { home: 4, away: 5, period: 1 })
    const d = decoder("volleyball")
    expect(d.push(concat(f, f.subarray(0, 10)), 100).map((r) => r.receivedAt)).toEqual([100])
    expect(d.push(f.subarray(10, 30), 130)).toEqual([])
    expect(d.push(concat(f.subarray(30), f.subarray(0, 1)), 160).map((r) => r.receivedAt)).toEqual([100])
    expect(d.push(f.subarray(1), 190).map((r) => r.receivedAt)).toEqual([160])
    // Chatter before a frame start in the same read does not change its stamp.
    expect(d.push(concat(hex("01 02 F8"), f.subarray(0, 20)), 200)).toEqual([])
    expect(d.push(f.subarray(20), 220).map((r) => r.receivedAt)).toEqual([200])
    expect(d.stats).toMatchObject({ frames: 4, badFrames: 0, skippedBytes: 3 })
  })
})
