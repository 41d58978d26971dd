import { describe, expect, it } from "vitest"
import { clockPacket, statePacket } from "./encode.ts"
import { ascii } from "../../scripts/support/bytes.ts"
import { concat, decoderFor, gameStream, seededRandom, withBytes } from "./test-support.ts"

const STX = "\u0002"
const ETX = "\u0003"

describe("fairplay-mp70 framing", () => {
  const { bytes: stream, packets } = gameStream(70)
  const starts = packets.reduce<Array<number>>((at, p, i) => [...at, i === 0 ? 0 : at[i - 1]! + packets[i - 1]!.length], [])

  it("decodes several packets in one read, each stamped with that read's time", () => {
    const d = decoderFor("hockey")
    const oneByOne = decoderFor("hockey")
    const readings = d.push(stream, 42)
    expect(readings).toHaveLength(packets.length)
    expect(readings.map(({ receivedAt: _, ...fields }) => fields)).toEqual(packets.flatMap((p) => oneByOne.push(p, 0)).map(({ receivedAt: _, ...fields }) => fields))
    expect(readings.every((r) => r.receivedAt === 42)).toBe(true)
    expect(d.stats).toEqual({ frames: packets.length, badFrames: 0, overlong: 0, skippedBytes: 0 })
  })

  it("stamps a packet split across two reads, at every offset, with the first read's time", () => {
    const part = concat(clockPacket({ clock: "19:59", period: 1 }), statePacket({ home: 1, away: 0 }), clockPacket({ clock: "19:58", period: 2 }), statePacket({ home: 1, away: 1 }))
    const partStarts = [0, 11, 66, 77]
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

  it("drops a packet shorter than its type's length (C 11, H 55) as bad and reads the next one", () => {
    const d = decoderFor()
    const shortState = statePacket({ home: 5, away: 4 }).subarray(0, 54)
    shortState[53] = 0x03
    const shortClock = ascii(`${STX}C 100 16${ETX}`)
    expect(d.push(concat(shortState, shortClock, clockPacket({ clock: "1:00", period: 1 }), statePacket({ home: 3, away: 2 })), 1)).toEqual([
      { receivedAt: 1, clock: "1:00", period: 1 },
      { receivedAt: 1, home: 3, away: 2, period: 1, penalties: { home: [], away: [] } }
    ])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 2, skippedBytes: 0 })
  })

  it("accepts packets longer than the real console's", () => {
    const d = decoderFor()
    expect(d.push(concat(clockPacket({ clock: "1:00", period: 3 }, { length: 80 }), statePacket({ home: 4, away: 2 }, { length: 120 })), 1)).toEqual([
      { receivedAt: 1, clock: "1:00", period: 3 },
      { receivedAt: 1, home: 4, away: 2, period: 3, penalties: { home: [], away: [] } }
    ])
  })

  it("skips a packet cut off by the next STX (missing ETX), keeping the new packet's stamp", () => {
    const d = decoderFor()
    const cut = statePacket({ home: 1, away: 1 }).subarray(0, 50)
    expect(d.push(cut, 1)).toEqual([])
    expect(d.push(clockPacket({ clock: "15:00", period: 1 }), 2)).toEqual([{ receivedAt: 2, clock: "15:00", period: 1 }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: 50 })
  })

  it("skips packets of other types as traffic, not as bad packets", () => {
    const d = decoderFor()
    const state = concat(clockPacket({ clock: "15:00", period: 1 }), statePacket({ home: 3, away: 12 }))
    const other = withBytes(state.subarray(11), { 1: "T" })
    const bodetLike = Uint8Array.from([0x01, 0x7f, 0x02, 0x47, 0x31, 0x31, 0x82, 0x37, 0x20, 0x31, 0x33, 0x34, 0x20, 0x30, 0x30, 0x20, 0x30, 0x30, 0x31, 0x03, 0x2b])
    expect(d.push(concat(other, bodetLike, state), 1).map((r) => r.home)).toEqual([undefined, 3])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0, skippedBytes: 55 + bodetLike.length })
  })

  it("bounds the packet buffer at maxFrameBytes: a longer packet is dropped once, then reading resumes", () => {
    const d = decoderFor("hockey", { maxFrameBytes: 200 })
    expect(d.push(statePacket({ home: 1, away: 1 }, { length: 200 }), 1)).toHaveLength(1)
    expect(d.push(statePacket({ home: 1, away: 1 }, { length: 201 }), 2)).toEqual([])
    // A line that lost its ETX: 100 kB after an STX, in pieces.
    const junk = ascii("7".repeat(1000))
    expect(d.push(ascii(STX), 3)).toEqual([])
    for (let i = 0; i < 100; i++) expect(d.push(junk, 3)).toEqual([])
    expect(d.push(clockPacket({ clock: "15:00", period: 2 }), 4)).toEqual([{ receivedAt: 4, clock: "15:00", period: 2, home: 1, away: 1 }])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0, overlong: 2 })
  })

  it("bounds the default buffer at 4096 bytes and never below the longest packet type", () => {
    const d = decoderFor()
    expect(d.push(statePacket({ home: 2, away: 0 }, { length: 4096 }), 1)).toHaveLength(1)
    expect(d.push(statePacket({ home: 2, away: 0 }, { length: 4097 }), 1)).toEqual([])
    expect(d.stats.overlong).toBe(1)
    // A limit below the shortest packet would read nothing at all.
    expect(decoderFor("hockey", { maxFrameBytes: 16 }).push(statePacket({ home: 2, away: 0 }), 1)).toHaveLength(1)
    expect(decoderFor("hockey", { maxFrameBytes: 16, variant: "proline" }).push(statePacket({ home: 2, away: 0 }, { variant: "proline" }), 1)).toHaveLength(1)
  })
})

