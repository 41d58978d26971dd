import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { expectWellFormed } from "../button-test-support.ts"
import { concat, seededRandom } from "../shared/seeded-random.ts"
import { inputEvent } from "./index.ts"

const source = "foot-pedal"
const decodeOptions = Schema.decodeUnknownSync(inputEvent.optionsSchema)
const decoder = (options: unknown = {}) => inputEvent.makeDecoder({ ...decodeOptions(options), source })

const EV_SYN = 0
const EV_KEY = 1
const EV_MSC = 4
const KEY_F13 = 183
const KEY_B = 48

/** One `struct input_event` as the kernel writes it for 64-bit (24 bytes) or 32-bit (16 bytes) userspace. */
const record = (ms: number, type: number, code: number, value: number, size: 24 | 16 = 24) => {
  const buffer = Buffer.alloc(size)
  const seconds = Math.floor(ms / 1000)
  const micros = (ms % 1000) * 1000 + 417
  if (size === 24) {
    buffer.writeBigInt64LE(BigInt(seconds), 0)
    buffer.writeBigInt64LE(BigInt(micros), 8)
  } else {
    buffer.writeInt32LE(seconds, 0)
    buffer.writeInt32LE(micros, 4)
  }
  buffer.writeUInt16LE(type, size - 8)
  buffer.writeUInt16LE(code, size - 6)
  buffer.writeInt32LE(value, size - 4)
  return new Uint8Array(buffer)
}

/** A key edge as a keyboard reports it: scan code, key, SYN. */
const keyEdge = (ms: number, code: number, value: number, size: 24 | 16 = 24) =>
  concat(record(ms, EV_MSC, 4, 0x70068, size), record(ms, EV_KEY, code, value, size), record(ms, EV_SYN, 0, 0, size))

const kernel = 1_700_000_000_123
const later = kernel + 5_000

describe("input-event", () => {
  it("a press and release become single, stamped with the kernel's press time", () => {
    const d = decoder()
    expect(d.push(keyEdge(kernel, KEY_F13, 1), later)).toEqual([])
    expect(d.push(keyEdge(kernel + 120, KEY_F13, 0), later)).toEqual([{ source, button: "183", gesture: "single", pressedAt: kernel }])
    expect(d.stats).toEqual({ messages: 6, ignored: 4, bad: 0, duplicates: 0 })
  })

  it("reads records split anywhere across chunks", () => {
    const stream = concat(keyEdge(kernel, KEY_F13, 1), keyEdge(kernel + 100, KEY_F13, 0), keyEdge(kernel + 400, KEY_B, 1), keyEdge(kernel + 480, KEY_B, 0))
    for (const seed of [1, 2, 3, 4, 5]) {
      const d = decoder()
      const out = seededRandom(seed).chunks(stream, 30).flatMap((chunk) => [...d.push(chunk, later)])
      expect(out).toEqual([
        { source, button: "183", gesture: "single", pressedAt: kernel },
        { source, button: "48", gesture: "single", pressedAt: kernel + 400 }
      ])
    }
  })

  it("ignores autorepeat: holding the key is one hold, then release", () => {
    const d = decoder()
    const repeats = [500, 533, 566, 600, 900].map((ms) => keyEdge(kernel + ms, KEY_F13, 2))
    expect(d.push(concat(keyEdge(kernel, KEY_F13, 1), ...repeats), later)).toEqual([])
    // MSC and SYN of the press, and every record of the five repeats.
    expect(d.stats.ignored).toBe(2 + 5 * 3)
    expect(d.push(keyEdge(kernel + 1000, KEY_F13, 0), later)).toEqual([
      { source, button: "183", gesture: "hold", pressedAt: kernel },
      { source, button: "183", gesture: "release", pressedAt: kernel + 1000 }
    ])
  })

  it("emits hold from flush while the key is still down", () => {
    const d = decoder()
    d.push(keyEdge(kernel, KEY_F13, 1), kernel + 3)
    expect(d.nextDeadline()).toBe(kernel + 800)
    expect(d.flush(kernel + 800)).toEqual([{ source, button: "183", gesture: "hold", pressedAt: kernel }])
  })

  it("accepts only the configured keys, by name or code", () => {
    const d = decoder({ keys: ["KEY_F13", 48] })
    const out = d.push(concat(keyEdge(kernel, 30, 1), keyEdge(kernel + 50, 30, 0), keyEdge(kernel + 100, KEY_B, 1), keyEdge(kernel + 150, KEY_B, 0)), later)
    expect(out).toEqual([{ source, button: "48", gesture: "single", pressedAt: kernel + 100 }])
    expect(() => decodeOptions({ keys: ["KEY_NOPE"] })).toThrow()
  })

  it("reads 16-byte records of 32-bit userspace", () => {
    const d = decoder({ recordBytes: 16 })
    const out = d.push(concat(keyEdge(kernel, KEY_F13, 1, 16), keyEdge(kernel + 90, KEY_F13, 0, 16)), later)
    expect(out).toEqual([{ source, button: "183", gesture: "single", pressedAt: kernel }])
  })

  it("applies the gesture options", () => {
    const d = decoder({ gestures: { multiPressMs: 250 } })
    const out = d.push(concat(keyEdge(kernel, KEY_F13, 1), keyEdge(kernel + 80, KEY_F13, 0), keyEdge(kernel + 200, KEY_F13, 1), keyEdge(kernel + 260, KEY_F13, 0)), later)
    expect(out).toEqual([])
    expect(d.flush(kernel + 510)).toEqual([{ source, button: "183", gesture: "double", pressedAt: kernel }])
  })

  it("counts impossible key values and timestamps as bad", () => {
    const d = decoder()
    const badTime = record(kernel, EV_KEY, KEY_F13, 1)
    new DataView(badTime.buffer).setBigInt64(8, 2_000_000n, true)
    expect(d.push(concat(record(kernel, EV_KEY, KEY_F13, 7), badTime), later)).toEqual([])
    expect(d.stats.bad).toBe(2)
  })

  it("never throws on random bytes", () => {
    const d = decoder()
    const random = seededRandom(11)
    for (let i = 0; i < 300; i++) {
      expectWellFormed(d.push(random.bytes(random.int(0, 100)), later + i), source)
      expectWellFormed(d.flush(later + i), source)
    }
    expect(d.stats.messages).toBeGreaterThan(100)
  })
})
