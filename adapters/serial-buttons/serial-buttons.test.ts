import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { fuzz, utf8 } from "../button-test-support.ts"
import { seededRandom } from "../shared/seeded-random.ts"
import { serialButtons } from "./index.ts"

const t0 = 1_700_000_000_000
const source = "court3-arduino"
const decodeOptions = Schema.decodeUnknownSync(serialButtons.optionsSchema)
const decoder = (options: unknown = {}) => serialButtons.makeDecoder({ ...decodeOptions(options), source })

describe("serial-buttons", () => {
  it("reads `BTN <button> <gesture>` lines with the default pattern", () => {
    const d = decoder()
    expect(d.push(utf8("BTN 1 single\r\nBTN 2 hold\nBTN home double\n"), t0)).toEqual([
      { source, button: "1", gesture: "single", pressedAt: t0 },
      { source, button: "2", gesture: "hold", pressedAt: t0 },
      { source, button: "home", gesture: "double", pressedAt: t0 }
    ])
    expect(d.stats).toEqual({ messages: 3, ignored: 0, bad: 0, duplicates: 0 })
  })

  it("joins a line split across chunks and stamps it when it completes", () => {
    const d = decoder()
    expect(d.push(utf8("BTN 1 sin"), t0)).toEqual([])
    expect(d.push(utf8("gle\n"), t0 + 7)).toEqual([{ source, button: "1", gesture: "single", pressedAt: t0 + 7 }])
  })

  it("drops a repeated counter per button", () => {
    const d = decoder()
    const out = d.push(utf8("BTN 1 single 41\nBTN 1 single 41\nBTN 2 single 41\nBTN 1 single 42\n"), t0)
    expect(out.map((e) => e.button)).toEqual(["1", "2", "1"])
    expect(d.stats.duplicates).toBe(1)
  })

  it("gives a press with a counter the counter as identity, in a slot of the source and button; without one, none", () => {
    const d = decoder()
    expect(d.push(utf8("BTN 1 single 41\nBTN 2 hold 41\nBTN 1 double\n"), t0)).toEqual([
      { source, button: "1", gesture: "single", pressedAt: t0, identity: { slot: `${source} 1`, identity: "41" } },
      { source, button: "2", gesture: "hold", pressedAt: t0, identity: { slot: `${source} 2`, identity: "41" } },
      { source, button: "1", gesture: "double", pressedAt: t0 }
    ])
    // A new decoder (a restarted bridge) lets a repeated line through: the outbox knows the counter.
    expect(decoder().push(utf8("BTN 1 single 41\n"), t0 + 9).map((e) => e.identity)).toEqual([{ slot: `${source} 1`, identity: "41" }])
  })

  it("takes the counter group of a configured pattern as identity; button 1 when the pattern has none", () => {
    const d = decoder({ pattern: "^#(?<counter>\\d+) (?<gesture>[a-z]+)$" })
    expect(d.push(utf8("#7 single\n"), t0)).toEqual([
      { source, button: "1", gesture: "single", pressedAt: t0, identity: { slot: `${source} 1`, identity: "7" } }
    ])
  })

  it("takes a configured pattern; `button` defaults to 1, `ms` is matched but unused", () => {
    const d = decoder({ pattern: "^P(?<ms>\\d+):(?<gesture>[a-z]+)$" })
    expect(d.push(utf8("P123456:long\n"), t0)).toEqual([{ source, button: "1", gesture: "hold", pressedAt: t0 }])
  })

  it("counts non-matching lines, unknown gesture words and overlong lines as bad", () => {
    const d = decoder({ maxLineBytes: 32 })
    expect(d.push(utf8(`READY\nBTN 1 quadruple\nBTN 1 ${"x".repeat(64)}\nBTN 1 single\n`), t0)).toHaveLength(1)
    expect(d.stats).toEqual({ messages: 3, ignored: 0, bad: 3, duplicates: 0 })
  })

  it("rejects patterns without `gesture`, with unknown groups, or that do not compile", () => {
    expect(() => decodeOptions({ pattern: "^BTN (?<button>\\d+)$" })).toThrow(/gesture/)
    expect(() => decodeOptions({ pattern: "^(?<gesture>\\w+) (?<team>\\w+)$" })).toThrow(/team/)
    expect(() => decodeOptions({ pattern: "(" })).toThrow(/regular expression/)
  })

  it("never throws on garbage", () => {
    const d = decoder()
    fuzz(d, { source, stream: true, samples: ["BTN 1 single 4\n", "BTN 2 hold\r\n", "BTN x triple 9\n"] })
    const random = seededRandom(3)
    for (let i = 0; i < 200; i++) d.push(random.bytes(random.int(0, 300)), t0)
    expect(d.stats.messages).toBeGreaterThan(0)
    expect(d.stats.bad).toBeGreaterThan(0)
  })
})
