import { describe, expect, it } from "vitest"
import { learnReport } from "../../src/commissioning/layout-report.ts"
import { type ConsoleLayout, gameChunks, hockeyGame, noteAt, right, t0 } from "../../test/commissioning/learn-support.ts"
import { coloradoCts } from "./index.ts"
import { digitPacket, digitsOf, formatPacket } from "./test-support.ts"

const packet = (channel: number, text: string) => Uint8Array.from(digitPacket(channel, digitsOf(text)))

/** `MMSS` blank-padded in d2–5 of channel 1, as D's water polo map has the game clock. */
const clockModule = (clock: string) => {
  const [m, s] = clock.split(":") as [string, string]
  return `  ${m.padStart(2, " ")}${s}  `
}

/** D's water polo map: scores on channel 13 (home d0–1, guest d6–7), period on 14 d1, game clock on 1; a constant module beside them. */
const waterPolo: ConsoleLayout = (s) => [
  packet(13, `${right(s.home, 2)}    ${right(s.away, 2)}`),
  Uint8Array.from(formatPacket(13, [0, 0, 0, 0, 0, 0, 0, 0])),
  packet(14, ` ${s.period}      `),
  packet(1, clockModule(s.clock)),
  packet(19, " 0 0 0 0")
]

const report = (noted: ReturnType<typeof noteAt>[]) =>
  learnReport({ protocol: "colorado-cts", describeTime: (at) => `${(at - t0) / 1000} s`, forSupport: "capture.ndjson" }, gameChunks(waterPolo, hockeyGame), noted)

describe("learn on a Colorado console", () => {
  it("finds each field as a channel and digit positions, and prints options the adapter reads the recording with as noted", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const { exitCode, lines, options } = report(noted)
    expect(exitCode, lines.join("\n")).toBe(0)
    expect(lines).toContain("home: channel 13 digits 0-1 (read 1, 12 as noted; the options read channel 13 digits 0-2, with the blank bytes beside it, for values still to come).")
    expect(lines).toContain("clock: channel 1 digits 2-5 (read 12:34, 9:58, 0:47 as noted).")
    expect(options).toEqual({
      home: { channel: 13, digits: "0-2" },
      away: { channel: 13, digits: "5-7" },
      period: { channel: 14, digits: "1" },
      gameClock: { channel: 1, digits: "2-5" }
    })
    expect(lines.join("\n")).toMatch(/Checked: the adapter, with this block \(sport waterpolo\), reads every moment as noted\./u)
    expect(lines.join("\n")).toContain("gameClock: { channel: 1, digits: \"2-5\" }")
  })

  it("writes options the protocol's schema takes", () => {
    expect(coloradoCts.learn!.describeRange({ kind: "20", first: 4, last: 7 })).toBe("channel 20 digits 4-7")
    const block = coloradoCts.learn!.optionsBlock([
      { field: "home", range: { kind: "20", first: 1, last: 3 }, block: { kind: "20", first: 0, last: 3 } },
      { field: "away", range: { kind: "20", first: 7, last: 7 }, block: { kind: "20", first: 5, last: 7 } }
    ], false)
    expect(block).toMatchObject({ _tag: "block", choices: [{ options: { home: { channel: 20, digits: "0-3" }, away: { channel: 20, digits: "5-7" } }, sport: "waterpolo" }] })
  })
})
