import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import type { Decoder } from "../decoder.ts"
import { stramatel452m } from "./index.ts"
import { decoderFor, hockeyStream, seededRandom } from "./test-support.ts"

type Random = ReturnType<typeof seededRandom>

const sports = stramatel452m.sports
const codes = [0x33, 0x35, 0x36, 0x39, 0x37, 0x38, 0x77]
/** Frame start and end, sport codes, digits, blank and the letters consoles show: the bytes that steer the decoder. */
const telling = [0xf8, 0x0d, ...codes, 0x20, 0x30, 0x31, 0x32, 0x35, 0x39, 0x41, 0x44]

const randomBytes = (random: Random, length: number) =>
  Uint8Array.from({ length }, () => (random.next() < 0.4 ? telling[random.int(0, telling.length - 1)]! : random.int(0, 255)))

const isCount = (n: unknown, max: number) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max
const keys = ["receivedAt", "home", "away", "period", "sets", "setsWon", "gamePoints", "tieBreak", "serve", "clock", "penalties", "teamFouls", "timeouts"]

/** Whatever came in, what goes out must be well-formed and stamped by a chunk that was pushed. */
const expectWellFormed = (readings: ReadonlyArray<Reading>, stamps: ReadonlySet<number>) => {
  for (const r of readings) {
    const shown = JSON.stringify(r)
    expect(stamps.has(r.receivedAt), shown).toBe(true)
    expect(Object.keys(r).every((key) => keys.includes(key)), shown).toBe(true)
    expect(r.home === undefined, shown).toBe(r.away === undefined)
    for (const n of [r.home, r.away, ...(r.sets ?? []).flat()]) if (n !== undefined) expect(isCount(n, 999), shown).toBe(true)
    for (const n of [r.period, ...(r.setsWon ?? []), ...(r.teamFouls ?? []), ...(r.timeouts ?? [])]) {
      if (n !== undefined) expect(isCount(n, 9), shown).toBe(true)
    }
    for (const p of r.gamePoints ?? []) expect(typeof p === "number" ? isCount(p, 99) : ["0", "15", "30", "40", "AD"].includes(p), shown).toBe(true)
    if (r.clock !== undefined) expect(r.clock, shown).toMatch(/^(\d{1,2}:[0-5]\d|\d{1,2}\.\d)$/)
    if (r.penalties !== undefined) {
      for (const side of [r.penalties.home, r.penalties.away]) {
        expect(side.length, shown).toBeLessThanOrEqual(3)
        for (const p of side) expect(p, shown).toEqual({ remaining: expect.stringMatching(/^\d:[0-5]\d$/) })
      }
    }
  }
}

/** Feeds `bytes` in random chunks of 1 … maxChunk, each stamped with its index. */
const pushInChunks = (decoder: Decoder, bytes: Uint8Array, random: Random, maxChunk: number) => {
  const readings: Array<Reading> = []
  const stamps = new Set<number>()
  const chunkStarts: Array<number> = []
  let at = 0
  random.chunks(bytes, maxChunk).forEach((chunk, i) => {
    stamps.add(i)
    chunkStarts.push(at)
    at += chunk.length
    readings.push(...decoder.push(chunk, i))
  })
  /** The index of the chunk that carried byte `offset`. */
  const chunkOf = (offset: number) => chunkStarts.findLastIndex((start) => start <= offset)
  return { readings, stamps, chunkOf }
}

describe("stramatel-452m: push never throws", () => {
  it("on random bytes in random chunks, for every sport", () => {
    for (let seed = 1; seed <= 80; seed++) {
      const random = seededRandom(seed)
      const decoder = decoderFor(sports[seed % sports.length]!, { maxFrameBytes: random.int(0, 300) })
      const bytes = randomBytes(random, random.int(0, 4000))
      const { readings, stamps } = pushInChunks(decoder, bytes, random, 64)
      expectWellFormed(readings, stamps)
      expect(Object.values(decoder.stats).every((n) => isCount(n, Number.MAX_SAFE_INTEGER))).toBe(true)
      // Every frame outcome starts at a 0xF8, so outcomes can never outnumber them.
      const outcomes = decoder.stats.frames + decoder.stats.badFrames
      expect(outcomes, `seed ${seed}`).toBeLessThanOrEqual(bytes.filter((b) => b === 0xf8).length)
      expect(readings.length, `seed ${seed}`).toBe(decoder.stats.frames)
    }
  })

  it("on random mutations of a hockey console's bus, and loses only what the mutations touched", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(1000 + seed)
      const { bytes, scores } = hockeyStream(seed)
      const edits = random.int(1, 30)
      const decoder = decoderFor(["hockey", "handball", "unihockey", "futsal", "soccer"][seed % 5]!)
      const mutated = random.mutate(bytes, edits, () => telling[random.int(0, telling.length - 1)]!)
      const { readings, stamps } = pushInChunks(decoder, mutated, random, 300)
      expectWellFormed(readings, stamps)
      // One edit spoils at most the frame it lands in and, by cutting or joining, its neighbour.
      expect(decoder.stats.frames, `seed ${seed}`).toBeGreaterThanOrEqual(scores.length - 2 * edits)
    }
  })

  it("on a clean bus in any chunking: every main frame once, stamped by the chunk that brought its 0xF8", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(2000 + seed)
      const { bytes, scores, starts } = hockeyStream(seed, 80)
      const decoder = decoderFor("hockey")
      const { chunkOf, readings } = pushInChunks(decoder, bytes, random, random.int(1, 120))
      expect(readings.map((r) => [r.home, r.away, r.period]), `seed ${seed}`).toEqual(scores)
      expect(readings.map((r) => r.receivedAt), `seed ${seed}`).toEqual(starts.map(chunkOf))
      expect(decoder.stats.badFrames).toBe(0)
    }
  })

  it("on well-framed frames with random content, for every sport code", () => {
    const random = seededRandom(3)
    for (const [sport, code] of [["basketball", 0x33], ["hockey", 0x35], ["volleyball", 0x36], ["tennis", 0x39]] as const) {
      const decoder = decoderFor(sport)
      const stamps = new Set<number>()
      for (let i = 0; i < 3000; i++) {
        // Mostly blanks and digits, as consoles send, so that some frames read and some do not.
        const f = Uint8Array.from({ length: 54 }, () => {
          const roll = random.next()
          return roll < 0.5 ? 0x20 : roll < 0.85 ? 0x30 + random.int(0, 9) : random.int(0, 255)
        })
        f[0] = 0xf8
        f[1] = code
        f[53] = 0x0d
        stamps.add(i)
        expectWellFormed(decoder.push(f, i), stamps)
      }
      expect(decoder.stats.frames + decoder.stats.badFrames, sport).toBe(3000)
      expect(decoder.stats.frames, sport).toBeGreaterThan(0)
      expect(decoder.stats.badFrames, sport).toBeGreaterThan(0)
    }
  })

  it("on empty chunks, NaN receive times and odd options", () => {
    for (const maxFrameBytes of [Number.NaN, 0, -5, 1.5, Number.POSITIVE_INFINITY]) {
      const odd = stramatel452m.makeDecoder({ sport: "", maxFrameBytes })
      expect(() => odd.push(Uint8Array.from([0xf8, 0x35, 0x0d]), Number.NaN)).not.toThrow()
      expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
      expect(() => odd.push(hockeyStream(1, 4).bytes, 1)).not.toThrow()
      const hockey = stramatel452m.makeDecoder({ sport: "hockey", maxFrameBytes })
      expect(hockey.push(hockeyStream(1, 4).bytes, 1), `maxFrameBytes ${maxFrameBytes}`).toHaveLength(4)
    }
  })
})
