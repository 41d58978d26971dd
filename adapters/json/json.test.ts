import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { seededRandom } from "../shared/seeded-random.ts"
import { json } from "./index.ts"

const decodeOptions = Schema.decodeUnknownSync(json.optionsSchema)
const decoder = (options: unknown, maxFrameBytes?: number) =>
  json.makeDecoder({ ...decodeOptions(options), sport: "tennis", ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }) })
const text = (s: string) => new TextEncoder().encode(s)

const tennisFields = {
  home: "score.home",
  away: "score.away",
  period: "set",
  homePoints: "game.0",
  awayPoints: "game.1",
  sets: "score.sets",
  homeSetsWon: "won.h",
  awaySetsWon: "won.a",
  serve: "server",
  clock: "clock"
}

describe("json over a serial line", () => {
  it("reads every field by path, numbers or digit strings", () => {
    const d = decoder({ fields: tennisFields })
    const doc = {
      score: { home: 2, away: "1", sets: [[6, 4], { home: "3", away: 6 }, [2, 1]] },
      set: 3,
      game: ["40", "AD"],
      won: { h: 1, a: "1" },
      server: "A",
      clock: "1:23:45"
    }
    expect(d.push(text(`${JSON.stringify(doc)}\r\n`), 9)).toEqual([{
      receivedAt: 9,
      home: 2,
      away: 1,
      period: 3,
      gamePoints: ["40", "AD"],
      sets: [[6, 4], [3, 6], [2, 1]],
      setsWon: [1, 1],
      serve: "away",
      clock: "1:23:45"
    }])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0 })
  })

  it("waits for the newline and reassembles split documents", () => {
    const d = decoder({ fields: { home: "h", away: "a" } })
    const stream = text(`{"h":1,"a":0}\n{"h":2,\n"a":0}\n{"h":3,"a":0}\n{"h":4,"a":0}`)
    const readings = seededRandom(5).chunks(stream, 4).flatMap((piece) => d.push(piece, 1))
    expect(readings.map((r) => r.home)).toEqual([1, 3])
    // `{"h":2,` and `"a":0}` are two broken lines; the last document has no newline yet.
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 2 })
  })

  it("rejects malformed JSON, missing scores, wrong types and out-of-range values", () => {
    const d = decoder({ fields: { home: "h", away: "a", period: "p", sets: "s" } })
    const bad = [
      "{h:1}",
      `{"h":1}`,
      `{"h":1,"a":null}`,
      `{"h":1.5,"a":0}`,
      `{"h":-1,"a":0}`,
      `{"h":1000,"a":0}`,
      `{"h":"1a","a":0}`,
      `{"h":1,"a":0,"p":99}`,
      `{"h":1,"a":0,"s":[[1]]}`,
      `{"h":1,"a":0,"s":{"0":[1,2]}}`,
      `{"h":[1],"a":0}`,
      `[1,2]`,
      `"h"`
    ]
    expect(d.push(text(`${bad.join("\n")}\n{"h":7,"a":"07","p":"2"}\n`), 1)).toEqual([
      { receivedAt: 1, home: 7, away: 7, period: 2 }
    ])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: bad.length })
  })

  it("follows array indices and own properties only", () => {
    const d = decoder({ fields: { home: "teams.0.points", away: "teams.1.points", clock: "constructor.name" } })
    expect(d.push(text(`{"teams":[{"points":5},{"points":"6"}]}\n`), 1)).toEqual([{ receivedAt: 1, home: 5, away: 6 }])
  })

  it("drops overlong lines", () => {
    const d = decoder({ fields: { home: "h", away: "a" } }, 32)
    expect(d.push(text(`{"h":1,"a":0,"pad":"${"x".repeat(40)}"}\n{"h":2,"a":0}\n`), 1).map((r) => r.home)).toEqual([2])
    expect(d.stats).toMatchObject({ frames: 1, overlong: 1, badFrames: 0 })
  })
})

describe("json per message (MQTT)", () => {
  const fields = { home: "home", away: "away" }

  it("decodes one whole document per push, newline or not", () => {
    const d = decoder({ framing: "message", fields })
    expect(d.push(text(`{"home":3,"away":1}`), 1)).toEqual([{ receivedAt: 1, home: 3, away: 1 }])
    expect(d.push(text(`{"home":4,"away":1}\n`), 2)).toEqual([{ receivedAt: 2, home: 4, away: 1 }])
    expect(d.push(text(`{"home":5,`), 3)).toEqual([])
    expect(d.push(text(`"away":1}`), 4)).toEqual([])
    expect(d.push(new Uint8Array(0), 5)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 2 })
  })

  it("drops payloads over the size limit", () => {
    const d = decoder({ framing: "message", fields }, 16)
    expect(d.push(text(`{"home":3,"away":1,"x":1}`), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, overlong: 1 })
  })
})

describe("json options", () => {
  const problem = (options: unknown) => {
    try {
      decodeOptions(options)
      return "accepted"
    } catch (error) {
      return String(error)
    }
  }

  it("says what is wrong", () => {
    expect(problem({ fields: {} })).toMatch(/no field configured/)
    expect(problem({ fields: { home: "a" } })).toMatch(/home and away must be configured together/)
    expect(problem({ fields: { home: "a..b", away: "c" } })).toMatch(/none empty/)
    expect(problem({ framing: "stream", fields: { period: "p" } })).not.toBe("accepted")
    expect(problem({ framing: "message", fields: { period: "p" } })).toBe("accepted")
  })
})

describe("json robustness", () => {
  it("never throws on random bytes or random JSON-ish text", () => {
    const random = seededRandom(13)
    const alphabet = `{}[]":,0123456789.-e htanrul\n`
    for (const framing of ["lines", "message"]) {
      const d = decoder({ framing, fields: { ...tennisFields, home: "score.0", away: "score.1" } }, 256)
      for (let i = 0; i < 3000; i++) {
        const chunk = random.next() < 0.5
          ? random.bytes(random.int(0, 100))
          : text(Array.from({ length: random.int(0, 100) }, () => alphabet[random.int(0, alphabet.length - 1)]).join(""))
        for (const r of d.push(chunk, i)) expect([r.home, r.away].every((n) => Number.isInteger(n) && n! >= 0 && n! < 1000)).toBe(true)
      }
      expect(d.stats.badFrames).toBeGreaterThan(0)
    }
  })
})
