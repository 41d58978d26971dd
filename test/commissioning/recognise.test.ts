import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { Result, Schema } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { decodeWithEveryProtocol, isClean, recognisableProtocols } from "../../src/commissioning/recognise.ts"
import { guessText } from "../../src/commissioning/text-guess.ts"

const chunksOf = (bytes: Uint8Array, maxPiece = 64) => seededRandom(1).chunks(bytes, maxPiece).map((b, i) => ({ bytes: b, receivedAt: i }))
const daktronics = new Uint8Array(readFileSync("adapters/daktronics-rtd/fixtures/football-j5-capture.bin"))
const terminal = new Uint8Array(readFileSync("adapters/daktronics-rtd/fixtures/football-j6-terminal-capture.bin"))
const text = (s: string) => chunksOf(new TextEncoder().encode(s))

describe("recognising a controller from its bytes", () => {
  it("tries the decoders whose definition says how to recognise them, leaving lines and json to the text guess", () => {
    // A new controller is tried by its definition's `recognise`, without a line here.
    expect(recognisableProtocols()).toEqual(expect.arrayContaining(["daktronics-rtd", "stramatel-452m", "bodet-scorepad", "fairplay-mp70"]))
    expect(recognisableProtocols()).not.toContain("lines")
    expect(recognisableProtocols()).not.toContain("json")
  })

  it("decodes each recognisable protocol with its default options, which the protocol must take", () => {
    for (const name of recognisableProtocols()) {
      const { optionsSchema } = protocols[name]!
      expect(Result.isSuccess(Schema.decodeUnknownResult(optionsSchema)({})), `${name} takes options: {}`).toBe(true)
    }
  })

  it("reads the real Daktronics capture cleanly, with every sport tried as a candidate", () => {
    const [dak, stramatel] = decodeWithEveryProtocol(chunksOf(daktronics))
    expect(dak).toMatchObject({ protocol: "daktronics-rtd", frames: 246, badFrames: 0 })
    expect(dak!.sports.map((s) => s.sport).sort()).toEqual(["basketball", "football", "tennis", "volleyball"])
    expect(isClean(dak!)).toBe(true)
    expect(isClean(stramatel!)).toBe(false)
    expect(guessText(chunksOf(daktronics))).toBeUndefined()
  })

  it("recognises nothing in the terminal capture, whose frames cannot be verified", () => {
    expect(decodeWithEveryProtocol(chunksOf(terminal)).filter(isClean)).toEqual([])
  })

  it("finds the one sport a Stramatel stream announces", () => {
    const frames = Buffer.concat(Array.from({ length: 5 }, (_, i) => frame(0x33, { home: 50 + i, away: 48, period: 3, clock: "04:12" })))
    const stramatel = decodeWithEveryProtocol(chunksOf(new Uint8Array(frames))).find((r) => r.protocol === "stramatel-452m")!
    expect(isClean(stramatel)).toBe(true)
    expect(stramatel.sports.map((s) => s.sport)).toEqual(["basketball"])
    expect(stramatel.sports[0]!.sample).toMatchObject({ home: 54, away: 48 })
  })

  it("tells text lines from JSON lines and binary", () => {
    expect(guessText(text("H 12 A 9\r\nH 13 A 9\r\nH 1"))).toEqual({ kind: "text lines", lines: 2, sample: "H 13 A 9" })
    expect(guessText(text('{"h":1}\n{"h":2}\n'))).toMatchObject({ kind: "JSON lines", lines: 2 })
    expect(guessText(text("one line only\n"))).toBeUndefined()
    expect(guessText(chunksOf(seededRandom(3).bytes(4096)))).toBeUndefined()
  })
})
