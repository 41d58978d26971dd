import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { daktronicsRtd } from "./index.ts"
import { decoderFor, fixture, pushInChunks, randomInt, seededRandom, statsOf } from "./test-support.ts"

const clean = fixture("football-j5-capture.bin")
const sports = ["basketball", "volleyball", "tennis", "football"] as const

const randomBytes = (random: () => number, length: number) =>
  Uint8Array.from({ length }, () => (random() < 0.1 ? [0x16, 0x01, 0x02, 0x04, 0x17][randomInt(random, 0, 4)]! : randomInt(random, 0, 255)))

/** Flips, inserts and deletes random bytes of the real capture. */
const mutate = (random: () => number, bytes: Uint8Array) => {
  const out = Array.from(bytes)
  for (let n = randomInt(random, 1, 40); n > 0; n--) {
    const at = randomInt(random, 0, out.length - 1)
    const kind = randomInt(random, 0, 2)
    if (kind === 0) out[at] = randomInt(random, 0, 255)
    else if (kind === 1) out.splice(at, 0, randomInt(random, 0, 255))
    else out.splice(at, 1)
  }
  return Uint8Array.from(out)
}

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0

/** Whatever came in, what goes out must be well-formed: no NaN, no negative or fractional counts. */
const expectWellFormed = (readings: ReadonlyArray<Reading>) => {
  for (const r of readings) {
    for (const n of [r.home, r.away, r.period, ...(r.sets ?? []).flat(), ...(r.setsWon ?? [])]) {
      if (n !== undefined) expect(isCount(n), JSON.stringify(r)).toBe(true)
    }
    for (const p of r.gamePoints ?? []) {
      expect(typeof p === "number" ? isCount(p) : ["0", "15", "30", "40", "AD"].includes(p)).toBe(true)
    }
  }
}

describe("daktronics-rtd: push never throws", () => {
  it("on random bytes in random chunks", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed)
      const decoder = decoderFor(sports[seed % sports.length]!, { maxFrameBytes: randomInt(random, 0, 600) })
      const bytes = randomBytes(random, randomInt(random, 0, 3000))
      const readings = pushInChunks(decoder, bytes, random, 64)
      expectWellFormed(readings)
      const stats = statsOf(decoder)
      expect(Object.values(stats).every(isCount)).toBe(true)
      // Every frame outcome starts with a SYN, so outcomes can never outnumber SYN bytes.
      const outcomes = stats.frames + stats.badFrames + stats.nonDataFrames + stats.overlong
      expect(outcomes, `seed ${seed}`).toBeLessThanOrEqual(bytes.filter((b) => b === 0x16).length)
    }
  })

  it("on random mutations of the real capture, and loses only what the mutations touched", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(1000 + seed)
      const decoder = decoderFor(sports[seed % sports.length]!)
      const readings = pushInChunks(decoder, mutate(random, clean), random, 500)
      expectWellFormed(readings)
      const stats = statsOf(decoder)
      // At most 40 edits of 247 frames: most frames must still decode.
      expect(stats.frames + stats.nonDataFrames, `seed ${seed}`).toBeGreaterThan(247 - 2 * 40 - 1)
    }
  })

  it("on empty chunks, NaN receive times and odd options", () => {
    const odd = daktronicsRtd.makeDecoder({ sport: "", maxFrameBytes: Number.NaN })
    expect(() => odd.push(Uint8Array.from([0x16, 0x30, 0x17]), Number.NaN)).not.toThrow()
    expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
  })
})
