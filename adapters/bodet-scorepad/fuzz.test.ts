import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { bodetScorepad } from "./index.ts"
import { concat, consoleStream, decoderFor, seededRandom } from "./test-support.ts"

const sports = ["unihockey", "hockey", "handball", "futsal", "basketball"] as const
const { frames, bytes: clean } = consoleStream(60)

type Random = ReturnType<typeof seededRandom>

/** Random bytes with the protocol's control bytes and digits over-represented, so frames start and end often. */
const randomBytes = (random: Random, length: number) =>
  Uint8Array.from({ length }, () => {
    const roll = random.next()
    return roll < 0.05 ? 0x01 : roll < 0.08 ? 0x03 : roll < 0.1 ? 0x02 : roll < 0.4 ? 0x30 + random.int(0, 9) : random.int(0, 255)
  })

const push = (decoder: ReturnType<typeof decoderFor>, bytes: Uint8Array, random: Random, maxChunk: number) =>
  random.chunks(bytes, maxChunk).flatMap((chunk, i) => decoder.push(chunk, i))

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0

/** Whatever came in, what goes out must be well-formed. */
const expectWellFormed = (readings: ReadonlyArray<Reading>) => {
  for (const r of readings) {
    for (const n of [r.home, r.away]) if (n !== undefined) expect(isCount(n) && n <= 999, JSON.stringify(r)).toBe(true)
    if (r.period !== undefined) expect(isCount(r.period) && r.period <= 30, JSON.stringify(r)).toBe(true)
    if (r.clock !== undefined) expect(r.clock, JSON.stringify(r)).toMatch(/^\d{1,2}:\d\d$/u)
    expect((r.home === undefined) === (r.away === undefined), JSON.stringify(r)).toBe(true)
    expect(Object.keys(r).every((k) => ["receivedAt", "home", "away", "period", "clock"].includes(k))).toBe(true)
  }
}

/**
 * Every message-11 frame in `bytes` whose LRC is right by the protocol note's
 * rule, written apart from the decoder: SOH, no SOH up to ETX, LRC after it.
 */
const lrcValidScores = (bytes: Uint8Array): Set<string> => {
  const valid = new Set<string>()
  for (let start = bytes.indexOf(0x01); start !== -1; start = bytes.indexOf(0x01, start + 1)) {
    const etx = bytes.indexOf(0x03, start)
    if (etx === -1 || etx + 1 >= bytes.length || bytes.subarray(start + 1, etx + 2).includes(0x01)) continue
    let xor = 0
    for (let i = start + 1; i <= etx; i++) xor ^= bytes[i]!
    xor &= 0x7f
    if ((xor < 0x20 ? xor + 0x20 : xor) !== bytes[etx + 1]) continue
    const text = String.fromCharCode(...bytes.subarray(start + 12, start + 18))
    valid.add(`${Number(text.slice(0, 3))}-${Number(text.slice(3))}`)
  }
  return valid
}

describe("bodet-scorepad: push never throws", () => {
  it("on random bytes in random chunks, with random maxFrameBytes", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed)
      const d = decoderFor(sports[seed % sports.length], { maxFrameBytes: random.int(0, 300) })
      const bytes = randomBytes(random, random.int(0, 4000))
      const readings = push(d, bytes, random, 64)
      expectWellFormed(readings)
      expect(Object.values(d.stats).every(isCount)).toBe(true)
      // Every frame outcome starts at a SOH, so outcomes can never outnumber SOH bytes.
      const outcomes = d.stats.frames + d.stats.badFrames + d.stats.otherMessages + d.stats.overlong
      expect(outcomes, `seed ${seed}`).toBeLessThanOrEqual(bytes.filter((b) => b === 0x01).length)
      expect(readings.length).toBe(d.stats.frames)
    }
  })

  it("on random mutations of a console stream: only frames with a right LRC give readings, most survive", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(1000 + seed)
      const d = decoderFor(sports[seed % sports.length])
      const mutated = random.mutate(clean, random.int(1, 40))
      const readings = push(d, mutated, random, 100)
      expectWellFormed(readings)
      const valid = lrcValidScores(mutated)
      for (const r of readings) expect(valid.has(`${r.home}-${r.away}`), `seed ${seed}: ${JSON.stringify(r)}`).toBe(true)
      // At most 40 edits of 60 message-11 frames (and 120 others): most must still decode.
      expect(d.stats.frames, `seed ${seed}`).toBeGreaterThanOrEqual(60 - 40)
    }
  })

  it("on frames with a wrong LRC: exactly those give no reading, every other frame does", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(2000 + seed)
      const broken = new Set<number>()
      const stream = concat(...frames.map((f, i) => {
        if (random.next() >= 0.3) return f
        broken.add(i)
        const copy = f.slice()
        // Any byte but the right LRC and SOH (which would cut the frame instead).
        let wrong = random.int(0, 255)
        while (wrong === f[20] || wrong === 0x01) wrong = random.int(0, 255)
        copy[20] = wrong
        return copy
      }))
      const d = decoderFor()
      const readings = push(d, stream, random, 80)
      expect(readings.map((r) => r.home), `seed ${seed}`).toEqual(frames.map((_, i) => i).filter((i) => !broken.has(i)))
      expect(d.stats, `seed ${seed}`).toMatchObject({ frames: 60 - broken.size, badFrames: broken.size })
    }
  })

  it("on empty chunks, NaN receive times and odd options", () => {
    const odd = bodetScorepad.makeDecoder({ sport: "", maxFrameBytes: Number.NaN })
    expect(() => odd.push(clean, Number.NaN)).not.toThrow()
    expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
    const negative = bodetScorepad.makeDecoder({ sport: "unihockey", maxFrameBytes: -5 })
    expect(negative.push(clean, 1)).toHaveLength(60)
  })
})
