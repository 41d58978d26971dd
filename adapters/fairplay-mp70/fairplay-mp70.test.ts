import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { scoreEntryFor } from "../../src/scoring/score-entry-for.ts"
import { clockPacket, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import { ascii, concat, decoderFor, gameStream, seededRandom, withBytes } from "./test-support.ts"

const STX = "\u0002"
const ETX = "\u0003"

/** Text laid out by position, checked against the documented offsets as it is built. */
const laidOut = (segments: ReadonlyArray<readonly [number, string]>, length: number) => {
  let text = ""
  for (const [at, part] of segments) {
    expect(text.length, `segment ${JSON.stringify(part)} starts at ${at}`).toBe(at)
    text += part
  }
  expect(text.length + 1).toBe(length)
  return ascii(text + ETX)
}

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

describe("fairplay-mp70 packets", () => {
  it("decodes the documented state (H) and clock (C) packets", () => {
    const d = decoderFor("hockey")
    expect(d.push(docState, 1000)).toEqual([{ receivedAt: 1000, home: 3, away: 12, period: 2 }])
    expect(d.push(docClock, 1001)).toEqual([{ receivedAt: 1001, clock: "15:00" }])
    expect(d.stats).toEqual({ frames: 2, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("builds with the encoder what the note describes", () => {
    expect(statePacket({ home: 3, away: 12, period: 2, penalties: ["2:00", undefined, "1:45"] })).toEqual(docState)
    expect(clockPacket("15:00")).toEqual(docClock)
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

describe("fairplay-mp70 periods and overtime", () => {
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

describe("fairplay-mp70 framing", () => {
  const { bytes: stream, packets, states } = gameStream(70)
  const starts = packets.reduce<Array<number>>((at, p, i) => [...at, i === 0 ? 0 : at[i - 1]! + packets[i - 1]!.length], [])

  it("decodes several packets in one read, each stamped with that read's time", () => {
    const d = decoderFor("hockey")
    const readings = d.push(stream, 42)
    expect(readings).toHaveLength(packets.length)
    expect(readings.filter((r) => r.home !== undefined).map(({ home, away, period }) => ({ home, away, period }))).toEqual(states)
    expect(readings.every((r) => r.receivedAt === 42)).toBe(true)
    expect(d.stats).toEqual({ frames: packets.length, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("stamps a packet split across two reads, at every offset, with the first read's time", () => {
    const part = concat(statePacket({ home: 1, away: 0, period: 1 }), clockPacket("19:58"), statePacket({ home: 1, away: 1, period: 1 }))
    const partStarts = [0, 80, 160]
    const whole = decoderFor().push(part, 0).map(({ receivedAt: _, ...fields }) => fields)
    for (let cut = 1; cut < part.length; cut++) {
      const d = decoderFor()
      const readings = [...d.push(part.subarray(0, cut), 100), ...d.push(part.subarray(cut), 200)]
      expect(readings.map(({ receivedAt: _, ...fields }) => fields), `cut at ${cut}`).toEqual(whole)
      expect(readings.map((r) => r.receivedAt), `cut at ${cut}`).toEqual(partStarts.map((start) => (start < cut ? 100 : 200)))
    }
  })

  it("gives identical readings for any chunking from 1 to 100 bytes, stamped at each packet's first byte", () => {
    const random = seededRandom(7)
    for (let round = 0; round < 25; round++) {
      const d = decoderFor()
      let offset = 0
      const chunkStart: Array<number> = []
      const readings = random.chunks(stream, 100).flatMap((piece) => {
        chunkStart.push(offset)
        offset += piece.length
        return d.push(piece, offset - piece.length)
      })
      expect(readings).toHaveLength(packets.length)
      // Each chunk is stamped with its own start offset: a packet carries the stamp of the chunk holding its STX.
      expect(readings.map((r) => r.receivedAt)).toEqual(starts.map((start) => chunkStart.filter((c) => c <= start).at(-1)))
    }
  })

  it("skips bytes between packets and counts them", () => {
    const random = seededRandom(5)
    // No STX in the garbage, so every byte of it must be counted as skipped.
    const garbage = () => random.bytes(random.int(1, 30)).map((b) => (b === 0x02 ? 0x20 : b))
    const noisy = concat(...packets.flatMap((p) => [garbage(), p]))
    const d = decoderFor()
    expect(d.push(noisy, 1)).toHaveLength(packets.length)
    expect(d.stats).toEqual({ frames: packets.length, badFrames: 0, overlong: 0, skippedBytes: noisy.length - stream.length })
  })

  it("drops a packet shorter than minLength as bad and reads the next one", () => {
    const short = ascii(`${STX}H            5              4             1 ${ETX}`)
    const d = decoderFor()
    expect(d.push(concat(short, clockPacket("1:00", { length: 79 }), docState), 1)).toEqual([{ receivedAt: 1, home: 3, away: 12, period: 2 }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 2, skippedBytes: 0 })
  })

  it("accepts packets longer than 80 bytes", () => {
    expect(decoderFor().push(statePacket({ home: 4, away: 2, period: 3 }, { length: 120 }), 1)).toEqual([{ receivedAt: 1, home: 4, away: 2, period: 3 }])
  })

  it("skips a packet cut off by the next STX (missing ETX), keeping the new packet's stamp", () => {
    const d = decoderFor()
    const cut = docState.subarray(0, 50)
    expect(d.push(cut, 1)).toEqual([])
    expect(d.push(docClock, 2)).toEqual([{ receivedAt: 2, clock: "15:00" }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: 50 })
  })

  it("skips packets of other types as traffic, not as bad packets", () => {
    const d = decoderFor()
    const other = withBytes(docState, { 1: "T" })
    const bodetLike = Uint8Array.from([0x01, 0x7f, 0x02, 0x47, 0x31, 0x31, 0x82, 0x37, 0x20, 0x31, 0x33, 0x34, 0x20, 0x30, 0x30, 0x20, 0x30, 0x30, 0x31, 0x03, 0x2b])
    expect(d.push(concat(other, bodetLike, docState), 1).map((r) => r.home)).toEqual([3])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: 80 + bodetLike.length })
  })

  it("bounds the packet buffer at maxFrameBytes: a longer packet is dropped once, then reading resumes", () => {
    const d = decoderFor("hockey", { maxFrameBytes: 200 })
    expect(d.push(statePacket({ home: 1, away: 1, period: 1 }, { length: 200 }), 1)).toHaveLength(1)
    expect(d.push(statePacket({ home: 1, away: 1, period: 1 }, { length: 201 }), 2)).toEqual([])
    // A line that lost its ETX: 100 kB after an STX, in pieces.
    const junk = ascii("7".repeat(1000))
    expect(d.push(ascii(STX), 3)).toEqual([])
    for (let i = 0; i < 100; i++) expect(d.push(junk, 3)).toEqual([])
    expect(d.push(docState, 4)).toEqual([{ receivedAt: 4, home: 3, away: 12, period: 2 }])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0, overlong: 2 })
  })

  it("bounds the default buffer at 4096 bytes and never below minLength", () => {
    const d = decoderFor()
    expect(d.push(statePacket({ home: 2, away: 0 }, { length: 4096 }), 1)).toHaveLength(1)
    expect(d.push(statePacket({ home: 2, away: 0 }, { length: 4097 }), 1)).toEqual([])
    expect(d.stats.overlong).toBe(1)
    // A limit below the shortest packet would read nothing at all.
    expect(decoderFor("hockey", { maxFrameBytes: 16 }).push(docState, 1)).toHaveLength(1)
  })
})

describe("fairplay-mp70 options", () => {
  const decode = Schema.decodeUnknownSync(fairplayMp70.optionsSchema)
  const strict = { errors: "all", onExcessProperty: "error" } as const
  const problem = (options: unknown) => {
    const result = Schema.decodeUnknownResult(fairplayMp70.optionsSchema)(options, strict)
    return result._tag === "Failure" ? result.failure.message : "accepted"
  }

  it("decodes {} (so sniff can try the protocol with no options) to the documented layout", () => {
    expect(decode({})).toEqual({})
    expect(decoderFor("hockey", decode({})).push(docState, 1)).toHaveLength(1)
  })

  it("moves every field with positions, and minLength sets the shortest packet", () => {
    const positions = { home: 20, guest: 40, period: 60, clock: 10 }
    const options = decode({ positions, minLength: 90, overtimePeriod: 5 })
    const layout = { positions, length: 90 }
    const moved = decoderFor("hockey", options)
    expect(moved.push(concat(statePacket({ home: 7, away: 65, period: "O" }, layout), clockPacket("2:05", layout)), 1)).toEqual([
      { receivedAt: 1, home: 7, away: 65, period: 5 },
      { receivedAt: 1, clock: "2:05" }
    ])
    // The documented layout is now too short, and the default decoder reads blanks where the fields moved to.
    expect(moved.push(docState, 2)).toEqual([])
    expect(moved.stats.badFrames).toBe(1)
    expect(decoderFor().push(statePacket({ home: 7, away: 65, period: 2 }, layout), 3)).toEqual([{ receivedAt: 3 }])
  })

  it("rejects overlapping fields, naming the option", () => {
    expect(problem({ positions: { guest: 14 } })).toMatch(/guest at 14–16 overlaps home at 13–15[^]*\["positions"\]\["guest"\]/)
    expect(problem({ positions: { period: 31 } })).toMatch(/period at 31 overlaps guest at 29–31[^]*\["positions"\]\["period"\]/)
    // The clock is in the other packet type: it may share positions with H fields.
    expect(problem({ positions: { clock: 13 } })).toBe("accepted")
  })

  it("rejects a field past the end of the shortest packet, naming the option", () => {
    expect(problem({ minLength: 46 })).toMatch(/period at 45 runs into the ETX of a 46-byte packet[^]*\["positions"\]\["period"\]/)
    expect(problem({ minLength: 47 })).toBe("accepted")
    expect(problem({ positions: { guest: 77 } })).toMatch(/guest at 77–79 runs into the ETX[^]*\["positions"\]\["guest"\]/)
    expect(problem({ positions: { clock: 76 } })).toMatch(/clock at 76–79[^]*\["positions"\]\["clock"\]/)
  })

  it("rejects values out of range and unknown keys", () => {
    expect(problem({ positions: { home: 1 } })).toMatch(/\["positions"\]\["home"\]/)
    expect(problem({ positions: { home: 13.5 } })).toMatch(/\["positions"\]\["home"\]/)
    expect(problem({ overtimePeriod: 0 })).toMatch(/\["overtimePeriod"\]/)
    expect(problem({ minLength: 4 })).toMatch(/\["minLength"\]/)
    expect(problem({ position: { home: 20 } })).toMatch(/\["position"\]/)
  })

  it("refuses to build a decoder from options that skipped the schema", () => {
    expect(() => fairplayMp70.makeDecoder({ sport: "hockey", minLength: 20 })).toThrow(/options\.positions\.guest: guest at 29–31 runs into the ETX of a 20-byte packet/)
  })
})
