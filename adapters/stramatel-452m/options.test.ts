import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { frame } from "./encode.ts"
import { stramatel452m } from "./index.ts"
import { concat, decoderFor, rawFrame, shown } from "./test-support.ts"

const strict = { errors: "all", onExcessProperty: "error" } as const
const decode = (options: unknown) => Schema.decodeUnknownSync(stramatel452m.optionsSchema)(options, strict)
const problem = (options: unknown) => {
  const result = Schema.decodeUnknownResult(stramatel452m.optionsSchema)(options, strict)
  return result._tag === "Failure" ? result.failure.message : "accepted"
}

describe("stramatel-452m sportCodes", () => {
  it("maps other sport codes to a layout, merged over the defaults", () => {
    const d = decoderFor("volleyball", decode({ sportCodes: { "0x46": "volleyball" } }))
    const newer = frame(0x46, { home: 3, away: 4, period: 1 }, "volleyball")
    expect(d.push(concat(newer, frame(0x36, { home: 18, away: 4, period: 1 })), 1).map((r) => r.home)).toEqual([3, 18])
  })

  it("rejects a code that is not a byte, or a sport no layout reads", () => {
    expect(problem({ sportCodes: { "36": "volleyball" } })).toMatch(/sportCodes: 36 is not a byte like 0x36/)
    expect(problem({ sportCodes: { "0x3A": "tabletennis" } })).toMatch(/sportCodes: 0x3A: "tabletennis" is not a sport this protocol reads \(basketball, handball/)
  })

  it("decodes {} so sniff can try the protocol with no options", () => {
    expect(decode({})).toEqual({})
  })
})

describe("stramatel-452m fields", () => {
  it("moves the fields of one code and keeps the rest of its layout", () => {
    const fields = { home: "0x35 31-32", away: "0x35 33-34", period: "0x35 44", clock: "0x35 46-49" }
    const d = decoderFor("hockey", decode({ fields }))
    // A firmware that sends the score, period and clock elsewhere and leaves 9–14 blank; penalties where documented.
    const moved = rawFrame(0x35, { 31: " 7", 33: "11", 44: "3", 46: "1945", 15: "1", 22: "200" })
    expect(shown(d, moved)).toEqual([{ home: 7, away: 11, period: 3, clock: "19:45", penalties: { home: [{ remaining: "2:00" }], away: [] } }])
    // The documented places are no longer read in 0x35 frames.
    expect(shown(d, rawFrame(0x35, { 4: "2000", 9: " 1", 12: " 2", 14: "1" }))).toEqual([{ penalties: { home: [], away: [] } }])
  })

  it("applies to frames of the code named only: a code mapped with sportCodes keeps the documented layout", () => {
    const d = decoderFor("handball", decode({ sportCodes: { "0x46": "handball" }, fields: { period: "0x46 20" } }))
    expect(shown(d, concat(rawFrame(0x46, { 9: " 1", 12: " 2", 14: "9", 20: "2" }), rawFrame(0x35, { 9: " 1", 12: " 2", 14: "2", 20: "9" }))))
      .toMatchObject([{ home: 1, away: 2, period: 2 }, { home: 1, away: 2, period: 2 }])
  })

  it("moves a period of two digits and a 3-digit score", () => {
    const d = decoderFor("basketball", decode({ fields: { period: "0x33 46-47", home: "0x33 8-10" } }))
    expect(shown(d, rawFrame(0x33, { 8: "101", 11: " 99", 14: "x", 46: "12" }))).toEqual([{ home: 101, away: 99, period: 12 }])
  })

  it("moves volleyball's live points together with the set in play", () => {
    const d = decoderFor("volleyball", decode({ fields: { home: "0x36 44-45", away: "0x36 46-47" } }))
    const reading = d.push(rawFrame(0x36, { 44: "12", 46: "10", 14: "2", 24: "2523" }), 0)[0]
    expect(reading).toMatchObject({ home: 12, away: 10, sets: [[25, 23], [12, 10]] })
  })

  it("moves tennis game points", () => {
    const d = decoderFor("tennis", decode({ fields: { home: "0x39 45-46", away: "0x39 47-48" } }))
    expect(d.push(rawFrame(0x39, { 45: "AD", 47: "40", 14: "1", 22: " 3", 35: " 2" }), 0)[0]).toMatchObject({ gamePoints: ["AD", "40"] })
  })

  it("says what is wrong, naming the option", () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
      [{ home: "9-10" }, /is not "<type> <first>-<last>"[^]*\["fields"\]\["home"\]/],
      [{ home: "H 9-10" }, /fields\.home: "H" is not a sport code: a Stramatel frame's type is its byte 1 in 0x-hex[^]*\["fields"\]\["home"\]/],
      [{ away: "0x99 12-13" }, /fields\.away: no layout reads frames of code 0x99[^]*\["fields"\]\["away"\]/],
      [{ home: "0x35 0-1" }, /fields\.home: bytes 0-1 are not inside a frame's data: bytes 2 to 52[^]*\["fields"\]\["home"\]/],
      [{ clock: "0x35 50-53" }, /fields\.clock: bytes 50-53 are not inside[^]*\["fields"\]\["clock"\]/],
      [{ period: "0x35 1" }, /fields\.period: byte 1 is not inside/],
      [{ home: "0x35 9-12" }, /fields\.home: home is 1 to 3 digits, not 4/],
      [{ clock: "0x35 4-6" }, /fields\.clock: clock is 4 bytes \(MMSS or SSt \), not 3/],
      [{ period: "0x35 14-16" }, /fields\.period: period is 1 or 2 digits, not 3/],
      [{ home: "0x35 12-13" }, /fields\.home: 0x35 12-13 overlaps away at 0x35 12-13 \(its default place: move it too\)[^]*\["fields"\]\["home"\]/],
      [{ home: "0x35 30-31", away: "0x35 31-32" }, /fields\.home: 0x35 30-31 overlaps away at 0x35 31-32[^]*\["fields"\]\["home"\]/],
      [{ period: "0x33 7" }, /fields\.period: 0x33 7 overlaps clock at 0x33 4-7/]
    ]
    for (const [fields, message] of cases) expect(problem({ fields }), JSON.stringify(fields)).toMatch(message)
    expect(problem({ fields: { scores: "0x35 9-10" } })).toMatch(/\["fields"\]\["scores"\]/)
    expect(problem({ fields: { home: "0x35 20-21", away: "0x35 22-23", period: "0x35 24", clock: "0x35 25-28" } })).toBe("accepted")
  })

  it("refuses to build a decoder from options that skipped the schema", () => {
    expect(() => stramatel452m.makeDecoder({ sport: "hockey", fields: { home: "0x35 12-13" } })).toThrow(/options\.fields\.home: 0x35 12-13 overlaps away/)
  })
})
