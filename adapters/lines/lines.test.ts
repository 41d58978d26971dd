import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { seededRandom } from "../shared/seeded-random.ts"
import { lines } from "./index.ts"

const decodeOptions = Schema.decodeUnknownSync(lines.optionsSchema)
const decoder = (options: unknown, maxFrameBytes?: number) =>
  lines.makeDecoder({ ...decodeOptions(options), sport: "volleyball", ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }) })
const text = (s: string) => new TextEncoder().encode(s)

describe("lines with a pattern", () => {
  const simple = { pattern: "^S (?<home>\\d+) (?<away>\\d+) (?<period>\\d+)$" }

  it("reads the documented example", () => {
    const d = decoder(simple)
    expect(d.push(text("S 12 10 3\r\n"), 42)).toEqual([{ receivedAt: 42, home: 12, away: 10, period: 3 }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0 })
  })

  it("reads tennis fields", () => {
    const d = decoder({
      pattern:
        "^T (?<homePoints>\\w+)-(?<awayPoints>\\w+) sets=(?<sets>[\\d:, -]*) won=(?<homeSetsWon>\\d)/(?<awaySetsWon>\\d) srv=(?<serve>\\w+)(?: (?<clock>\\S+))?$"
    })
    expect(d.push(text("T 40-AD sets=6-4, 3:6 2-1 won=1/1 srv=away\nT 7-5 sets=6-4 6-6 won=1/0 srv=H 1:02:03\n"), 1)).toEqual([
      { receivedAt: 1, gamePoints: ["40", "AD"], sets: [[6, 4], [3, 6], [2, 1]], setsWon: [1, 1], serve: "away" },
      { receivedAt: 1, gamePoints: [7, 5], sets: [[6, 4], [6, 6]], setsWon: [1, 0], serve: "home", clock: "1:02:03" }
    ])
  })

  it("counts lines that do not match or carry impossible values, and emits nothing for them", () => {
    const d = decoder(simple)
    expect(d.push(text("hello\nS 1000 1 1\nS 12 10 31\nS 1 2 3\n"), 1).map((r) => r.home)).toEqual([1])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 3 })
  })

  it("decodes across chunk boundaries and drops overlong lines", () => {
    const d = decoder(simple, 16)
    const stream = text(`S 1 0 1\n${"S 9 9 9 ".repeat(10)}\nS 2 0 1\r\nS 3 0 1\n`)
    const readings = seededRandom(3).chunks(stream, 5).flatMap((piece) => d.push(piece, 1))
    expect(readings.map((r) => r.home)).toEqual([1, 2, 3])
    expect(d.stats).toMatchObject({ frames: 3, overlong: 1, badFrames: 0 })
  })
})

describe("lines with delimited columns", () => {
  it("reads columns in order and skips `_`", () => {
    const d = decoder({ delimiter: ";", fields: ["_", "home", "away", "_", "period"] })
    expect(d.push(text("SCORE; 3;2;x;4\n"), 1)).toEqual([{ receivedAt: 1, home: 3, away: 2, period: 4 }])
  })

  it("treats a space delimiter as any run of blanks", () => {
    const d = decoder({ delimiter: " ", fields: ["home", "away", "clock"] })
    expect(d.push(text("  21    19  08:12 extra\n"), 1)).toEqual([{ receivedAt: 1, home: 21, away: 19, clock: "08:12" }])
  })

  it("rejects short lines and missing scores", () => {
    const d = decoder({ delimiter: ",", fields: ["home", "away", "serve"] })
    expect(d.push(text("1,2\n,2,H\n1,2,X\n1,2,\n"), 1)).toEqual([{ receivedAt: 1, home: 1, away: 2 }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 3 })
  })
})

describe("lines options", () => {
  const problem = (options: unknown) => {
    try {
      decodeOptions(options)
      return "accepted"
    } catch (error) {
      return String(error)
    }
  }

  it("says what is wrong with a pattern", () => {
    expect(problem({ pattern: "(?<home>\\d+" })).toMatch(/pattern is not a valid regular expression/)
    expect(problem({ pattern: "^(\\d+) (\\d+)$" })).toMatch(/pattern has no named group among home, away/)
    expect(problem({ pattern: "(?<hme>\\d+) (?<away>\\d+)" })).toMatch(/unknown named group\(s\) hme/)
    expect(problem({ pattern: "(?<home>\\d+)" })).toMatch(/home and away must be configured together/)
  })

  it("wants exactly one form", () => {
    expect(problem({})).toMatch(/give either pattern, or delimiter and fields/)
    expect(problem({ pattern: "(?<period>\\d)", delimiter: "," })).toMatch(/not both/)
    expect(problem({ delimiter: ",", fields: ["_"] })).toMatch(/no field configured/)
    expect(problem({ delimiter: ",", fields: ["home", "guest"] })).not.toBe("accepted")
    expect(problem({ delimiter: ",", fields: ["home", "away", "home"] })).toMatch(/named twice/)
    expect(problem({ delimiter: ",", fields: ["home", "away", "_"] })).toBe("accepted")
  })
})

describe("lines robustness", () => {
  it("never throws on random bytes", () => {
    const random = seededRandom(11)
    const d = decoder({ pattern: "(?<home>\\d+)\\D+(?<away>\\d+)(?:\\D+(?<sets>.*))?" }, 64)
    for (let i = 0; i < 3000; i++) {
      const noise = random.bytes(random.int(0, 80)).map((b) => (random.next() < 0.3 ? 0x30 + (b % 10) : b))
      for (const r of d.push(noise, i)) {
        expect([r.home, r.away].every((n) => Number.isInteger(n) && n! >= 0 && n! < 1000)).toBe(true)
      }
    }
    expect(d.stats.frames + d.stats.badFrames).toBeGreaterThan(0)
  })
})
