import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import type { Decoder } from "../decoder.ts"
import { clockPacket, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import type { FairPlayOptions } from "./options.ts"
import { decoderFor, gameStream, seededRandom } from "./test-support.ts"

const sports = fairplayMp70.sports
const layouts: ReadonlyArray<FairPlayOptions> = [{}, { variant: "proline" }]
/** STX, ETX, the type letters, digits, blank and O: the bytes that steer the decoder. */
const telling = [0x02, 0x03, 0x43, 0x48, 0x4f, 0x20, 0x30, 0x35, 0x39]

const randomBytes = (random: ReturnType<typeof seededRandom>, length: number) =>
  Uint8Array.from({ length }, () => (random.next() < 0.3 ? telling[random.int(0, telling.length - 1)]! : random.int(0, 255)))

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0

/**
 * Whatever came in, what goes out must be well-formed: scores 0–999, a period 0–30, a clock M:SS,
 * penalties as shown (player 0–99, time M:SS), a known stamp. Rink layout: penalties come from H
 * packets, the clock from C; an H reading's period is the last C packet's, never a byte of the H
 * packet. ProLine: a packet is either a clock or a state, never both.
 */
const expectWellFormed = (readings: ReadonlyArray<Reading>, stamps: ReadonlySet<number>, layout: FairPlayOptions = {}) => {
  let periodShown: number | undefined
  for (const r of readings) {
    const shown = JSON.stringify(r)
    expect(stamps.has(r.receivedAt), shown).toBe(true)
    expect(Object.keys(r).every((key) => ["receivedAt", "home", "away", "period", "clock", "penalties"].includes(key)), shown).toBe(true)
    expect(r.home === undefined, shown).toBe(r.away === undefined)
    for (const n of [r.home, r.away]) if (n !== undefined) expect(isCount(n) && n <= 999, shown).toBe(true)
    if (r.period !== undefined) expect(isCount(r.period) && r.period <= 30, shown).toBe(true)
    if (r.clock !== undefined) expect(r.clock, shown).toMatch(/^\d{1,2}:[0-5]\d$/)
    for (const p of [...(r.penalties?.home ?? []), ...(r.penalties?.away ?? [])]) {
      expect(p.remaining, shown).toMatch(/^\d:[0-5]\d$/)
      if (p.player !== undefined) expect(isCount(p.player) && p.player <= 99, shown).toBe(true)
    }
    if (layout.variant === "proline") {
      expect(r.penalties, shown).toBeUndefined()
      expect(r.clock !== undefined && (r.home !== undefined || r.period !== undefined), shown).toBe(false)
    } else if (r.penalties === undefined) {
      periodShown = r.period
    } else {
      expect(r.clock, shown).toBeUndefined()
      if (r.home !== undefined) expect(r.period, shown).toBe(periodShown)
    }
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
      const layout = layouts[seed % layouts.length]!
      const decoder = decoderFor(sports[seed % sports.length]!, { ...layout, maxFrameBytes: random.int(0, 300) })
      const bytes = randomBytes(random, random.int(0, 4000))
      const { readings, stamps } = pushInChunks(decoder, bytes, random, 64)
      expectWellFormed(readings, stamps, layout)
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
      const layout = layouts[seed % layouts.length]!
      const { bytes, packets } = gameStream(seed, 120, layout)
      const edits = random.int(1, 30)
      const decoder = decoderFor(sports[seed % sports.length]!, layout)
      const { readings, stamps } = pushInChunks(decoder, random.mutate(bytes, edits, () => (random.next() < 0.5 ? telling[random.int(0, telling.length - 1)]! : random.int(0, 255))), random, 300)
      expectWellFormed(readings, stamps, layout)
      // One edit spoils at most the packet it lands in and, by cutting or joining, its neighbour.
      expect(decoder.stats.frames, `seed ${seed}`).toBeGreaterThanOrEqual(packets.length - 2 * edits)
    }
  })

  it.each(layouts)("on well-framed packets with random content (%o)", (layout) => {
    const random = seededRandom(3)
    const decoder = decoderFor("hockey", layout)
    const stamps = new Set<number>()
    const readings: Array<Reading> = []
    const clock = () => `${random.int(0, 20)}:${String(random.int(0, 59)).padStart(2, "0")}`
    const penalty = () => ({ player: random.int(0, 99), remaining: `${random.int(0, 9)}:${String(random.int(0, 59)).padStart(2, "0")}` })
    const penalties = () => ({ home: Array.from({ length: random.int(0, 2) }, penalty), away: Array.from({ length: random.int(0, 2) }, penalty) })
    for (let i = 0; i < 3000; i++) {
      // A packet the console could send, a longer one now and then, with up to three bytes changed.
      const period = random.next() < 0.1 ? "O" : random.int(0, 9)
      const length = random.next() < 0.2 ? (layout.variant === "proline" ? 80 : 55) + random.int(1, 20) : undefined
      const options = { ...layout, ...(length === undefined ? {} : { length }) }
      const packet = random.next() < 0.5
        ? clockPacket({ clock: clock(), period }, options)
        : statePacket({ home: random.int(0, 199), away: random.int(0, 199), period, penalties: penalties() }, options)
      for (let edits = random.int(0, 3); edits > 0; edits--) {
        packet[random.int(2, packet.length - 2)] = random.next() < 0.7 ? telling[random.int(4, telling.length - 1)]! : random.int(0x04, 0xff)
      }
      stamps.add(i)
      readings.push(...decoder.push(packet, i))
    }
    expectWellFormed(readings, stamps, layout)
    expect(decoder.stats.frames + decoder.stats.badFrames).toBe(3000)
    expect(readings.filter((r) => r.home !== undefined).length).toBeGreaterThan(100)
    expect(decoder.stats.badFrames).toBeGreaterThan(100)
  })

  it("on empty chunks, NaN receive times and odd buffer sizes", () => {
    for (const maxFrameBytes of [Number.NaN, 0, -5, 1.5, Number.POSITIVE_INFINITY]) {
      const odd = fairplayMp70.makeDecoder({ sport: "", maxFrameBytes })
      expect(() => odd.push(Uint8Array.from([0x02, 0x48, 0x03]), Number.NaN)).not.toThrow()
      expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
      expect(odd.push(gameStream(1, 4).bytes, 1).length, `maxFrameBytes ${maxFrameBytes}`).toBeGreaterThan(0)
      const proline = fairplayMp70.makeDecoder({ sport: "", maxFrameBytes, variant: "proline" })
      expect(proline.push(gameStream(1, 4, { variant: "proline" }).bytes, 1).length, `maxFrameBytes ${maxFrameBytes}`).toBeGreaterThan(0)
    }
  })
})
