import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import type { Decoder } from "../decoder.ts"
import { fairplayMp70 } from "./index.ts"
import { decoderFor, gameStream, seededRandom } from "./test-support.ts"

const sports = fairplayMp70.sports
/** STX, ETX, the type letters, digits, blank and O: the bytes that steer the decoder. */
const telling = [0x02, 0x03, 0x43, 0x48, 0x4f, 0x20, 0x30, 0x35, 0x39]

const randomBytes = (random: ReturnType<typeof seededRandom>, length: number) =>
  Uint8Array.from({ length }, () => (random.next() < 0.3 ? telling[random.int(0, telling.length - 1)]! : random.int(0, 255)))

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0

/** Whatever came in, what goes out must be well-formed: scores 0–999, a period 0–30, a clock M:SS, a known stamp. */
const expectWellFormed = (readings: ReadonlyArray<Reading>, stamps: ReadonlySet<number>) => {
  for (const r of readings) {
    const shown = JSON.stringify(r)
    expect(stamps.has(r.receivedAt), shown).toBe(true)
    expect(Object.keys(r).every((key) => ["receivedAt", "home", "away", "period", "clock"].includes(key)), shown).toBe(true)
    expect(r.home === undefined, shown).toBe(r.away === undefined)
    for (const n of [r.home, r.away]) if (n !== undefined) expect(isCount(n) && n <= 999, shown).toBe(true)
    if (r.period !== undefined) expect(isCount(r.period) && r.period <= 30, shown).toBe(true)
    if (r.clock !== undefined) expect(r.clock, shown).toMatch(/^\d{1,2}:[0-5]\d$/)
    // A packet is either a clock or a state, never both.
    expect(r.clock !== undefined && (r.home !== undefined || r.period !== undefined), shown).toBe(false)
  }
}

/** Feeds `bytes` in random chunks of 1 … maxChunk, each stamped with its index. */
const pushInChunks = (decoder: Decoder, bytes: Uint8Array, random: ReturnType<typeof seededRandom>, maxChunk: number) => {
  const readings: Array<Reading> = []
  const stamps = new Set<number>()
  random.chunks(bytes, maxChunk).forEach((chunk, i) => {
    stamps.add(i)
    readings.push(...decoder.push(chunk, i))
  })
  return { readings, stamps }
}

describe("fairplay-mp70: push never throws", () => {
  it("on random bytes in random chunks, with any buffer size", () => {
    for (let seed = 1; seed <= 80; seed++) {
      const random = seededRandom(seed)
      const decoder = decoderFor(sports[seed % sports.length]!, { maxFrameBytes: random.int(0, 300) })
      const bytes = randomBytes(random, random.int(0, 4000))
      const { readings, stamps } = pushInChunks(decoder, bytes, random, 64)
      expectWellFormed(readings, stamps)
      expect(Object.values(decoder.stats).every(isCount)).toBe(true)
      // Every packet outcome starts with an STX, so outcomes can never outnumber STX bytes.
      const outcomes = decoder.stats.frames + decoder.stats.badFrames + decoder.stats.overlong
      expect(outcomes, `seed ${seed}`).toBeLessThanOrEqual(bytes.filter((b) => b === 0x02).length)
      expect(readings.length, `seed ${seed}`).toBe(decoder.stats.frames)
    }
  })

  it("on random mutations of a game's stream, and loses only what the mutations touched", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(1000 + seed)
      const { bytes, packets } = gameStream(seed)
      const edits = random.int(1, 30)
      const decoder = decoderFor(sports[seed % sports.length]!)
      const { readings, stamps } = pushInChunks(decoder, random.mutate(bytes, edits, () => (random.next() < 0.5 ? telling[random.int(0, telling.length - 1)]! : random.int(0, 255))), random, 300)
      expectWellFormed(readings, stamps)
      // One edit spoils at most the packet it lands in and, by cutting or joining, its neighbour.
      expect(decoder.stats.frames, `seed ${seed}`).toBeGreaterThanOrEqual(packets.length - 2 * edits)
    }
  })

  it("on well-framed packets with random content", () => {
    const random = seededRandom(3)
    const decoder = decoderFor("hockey")
    const stamps = new Set<number>()
    for (let i = 0; i < 3000; i++) {
      const packet = Uint8Array.from({ length: random.int(80, 100) }, () =>
        random.next() < 0.7 ? telling[random.int(4, telling.length - 1)]! : random.int(0x04, 0xff))
      packet[0] = 0x02
      packet[1] = random.next() < 0.5 ? 0x43 : 0x48
      packet[packet.length - 1] = 0x03
      stamps.add(i)
      expectWellFormed(decoder.push(packet, i), stamps)
    }
    expect(decoder.stats.frames + decoder.stats.badFrames).toBe(3000)
    expect(decoder.stats.frames).toBeGreaterThan(0)
    expect(decoder.stats.badFrames).toBeGreaterThan(0)
  })

  it("on empty chunks, NaN receive times and odd buffer sizes", () => {
    for (const maxFrameBytes of [Number.NaN, 0, -5, 1.5, Number.POSITIVE_INFINITY]) {
      const odd = fairplayMp70.makeDecoder({ sport: "", maxFrameBytes })
      expect(() => odd.push(Uint8Array.from([0x02, 0x48, 0x03]), Number.NaN)).not.toThrow()
      expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
      expect(odd.push(gameStream(1, 4).bytes, 1).length, `maxFrameBytes ${maxFrameBytes}`).toBeGreaterThan(0)
    }
  })
})
