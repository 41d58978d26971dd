import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { fuzz, utf8 } from "../button-test-support.ts"
import { gpiomon } from "./index.ts"
import { parseGpiomonLine } from "./line-format.ts"

const source = "gpio-buttons"
const decodeOptions = Schema.decodeUnknownSync(gpiomon.optionsSchema)
const decoder = (options: unknown = {}) => gpiomon.makeDecoder({ ...decodeOptions(options), source })

const edgeAt = 1_700_000_000_123 // 1700000000.123456789
const later = edgeAt + 20

describe("gpiomon line formats", () => {
  it.each([
    ["v1 rising", "event:  RISING EDGE offset: 17 timestamp: [1700000000.123456789]", true, "17", edgeAt],
    ["v1 falling", "event: FALLING EDGE offset: 4 timestamp: [1700000000.123456789]", false, "4", edgeAt],
    ["v2 raw seconds", "1700000000.123456789\trising\tgpiochip0 17", true, "17", edgeAt],
    ["v2 UTC (-E realtime)", "2023-11-14T22:13:20.123456789Z\tfalling\tgpiochip0 17", false, "17", edgeAt],
    ["v2 named line", "1700000000.123456789\trising\t\"BUTTON_HOME\"", true, "BUTTON_HOME", edgeAt],
    ["v2 chip, offset and name", "1700000000.123456789\trising\tgpiochip1 5 \"BUTTON_HOME\"", true, "5", edgeAt],
    ["v2 unquoted name", "1700000000.123456789\tfalling\tBUTTON_AWAY", false, "BUTTON_AWAY", edgeAt],
    ["v2 monotonic", "8123.000500000\trising\tgpiochip0 17", true, "17", 8_123_000]
  ])("%s", (_, line, rising, offset, at) => {
    expect(parseGpiomonLine(line)).toEqual({ rising, line: offset, at })
  })

  it("reads v2 local time in the local time zone", () => {
    const local = new Date(2024, 2, 1, 9, 30, 5).getTime()
    expect(parseGpiomonLine("2024-03-01T09:30:05.250000000\trising\tgpiochip0 3")?.at).toBe(local + 250)
  })

  it.each(["", "event: SIDEWAYS EDGE offset: 1 timestamp: [1.2]", "Monitoring line 'x'...", "abc\trising\tgpiochip0 1", "1.5\tup\tgpiochip0 1"])(
    "%j is not an edge",
    (line) => expect(parseGpiomonLine(line)).toBeUndefined()
  )
})

describe("gpiomon decoder", () => {
  it("v1: rising press, falling release → single at the press edge (active high)", () => {
    const d = decoder()
    const out = d.push(utf8([
      "event:  RISING EDGE offset: 17 timestamp: [1700000000.123456789]",
      "event: FALLING EDGE offset: 17 timestamp: [1700000000.263000000]",
      ""
    ].join("\n")), later + 200)
    expect(out).toEqual([{ source, button: "17", gesture: "single", pressedAt: edgeAt }])
    expect(d.stats).toEqual({ messages: 2, ignored: 0, bad: 0, duplicates: 0 })
  })

  it("activeLow: the falling edge is the press", () => {
    const d = decoder({ activeLow: true })
    d.push(utf8("2023-11-14T22:13:20.123456789Z\tfalling\tgpiochip0 22\n"), later)
    expect(d.flush(edgeAt + 800)).toEqual([{ source, button: "22", gesture: "hold", pressedAt: edgeAt }])
    expect(d.push(utf8("2023-11-14T22:13:21.500000000Z\trising\tgpiochip0 22\n"), edgeAt + 1400))
      .toEqual([{ source, button: "22", gesture: "release", pressedAt: edgeAt + 1377 }])
  })

  it("debounces contact bounce using gpiomon's timestamps", () => {
    const d = decoder()
    const lines = [
      "1700000000.123456789\trising\tgpiochip0 17",
      "1700000000.125000000\tfalling\tgpiochip0 17",
      "1700000000.127000000\trising\tgpiochip0 17",
      "1700000000.300000000\tfalling\tgpiochip0 17",
      ""
    ]
    expect(d.push(utf8(lines.join("\n")), edgeAt + 200)).toEqual([{ source, button: "17", gesture: "single", pressedAt: edgeAt }])
  })

  it("monotonic timestamps (v2 default) keep their spacing on the wall clock", () => {
    const d = decoder()
    // Delivered together, 2 ms after the release: press and release keep their 150 ms apart.
    const out = d.push(utf8("8123.000000000\trising\tgpiochip0 5\n8123.150000000\tfalling\tgpiochip0 5\n"), edgeAt)
    expect(out).toEqual([{ source, button: "5", gesture: "single", pressedAt: edgeAt - 150 }])
  })

  it("joins lines split across chunks; ignores the banner, counts other lines as bad", () => {
    const d = decoder()
    expect(d.push(utf8("Monitoring line 'BUTTON_HOME'...\n1700000000.12345"), later)).toEqual([])
    expect(d.push(utf8("6789\trising\t\"BUTTON_HOME\"\nnonsense\n"), later)).toEqual([])
    expect(d.push(utf8("1700000000.200000000\tfalling\t\"BUTTON_HOME\"\n"), later + 100))
      .toEqual([{ source, button: "BUTTON_HOME", gesture: "single", pressedAt: edgeAt }])
    expect(d.stats).toEqual({ messages: 4, ignored: 1, bad: 1, duplicates: 0 })
  })

  it("never throws on garbage", () => {
    const d = decoder()
    fuzz(d, {
      source,
      stream: true,
      samples: ["event:  RISING EDGE offset: 17 timestamp: [1700000000.123456789]\n", "1700000000.2\tfalling\tgpiochip0 17\n"]
    })
    expect(d.stats.messages).toBeGreaterThan(0)
    expect(d.stats.bad).toBeGreaterThan(0)
  })
})
