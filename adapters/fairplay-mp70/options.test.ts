import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { clockPacket, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import { concat, decoderFor } from "./test-support.ts"

const decode = Schema.decodeUnknownSync(fairplayMp70.optionsSchema)
const strict = { errors: "all", onExcessProperty: "error" } as const
const problem = (options: unknown) => {
  const result = Schema.decodeUnknownResult(fairplayMp70.optionsSchema)(options, strict)
  return result._tag === "Failure" ? result.failure.message : "accepted"
}

describe("fairplay-mp70 options: variant", () => {
  it("decodes {} (so sniff can try the protocol with no options) to the rink layout", () => {
    expect(decode({})).toEqual({})
    const d = decoderFor("hockey", decode({}))
    expect(d.push(concat(clockPacket({ clock: "9:59", period: 1 }), statePacket({ home: 2, away: 1 })), 1)).toHaveLength(2)
    expect(d.stats.badFrames).toBe(0)
  })

  it("chooses the 80-byte ProLine layout with variant: proline, and nothing else changes it", () => {
    const options = decode({ variant: "proline" })
    const d = decoderFor("hockey", options)
    expect(d.push(concat(statePacket({ home: 2, away: 1, period: 3 }, options), clockPacket({ clock: "9:59" }, options)), 1)).toEqual([
      { receivedAt: 1, home: 2, away: 1, period: 3 },
      { receivedAt: 1, clock: "9:59" }
    ])
    expect(problem({ variant: "ProLine" })).toMatch(/\["variant"\]/)
  })
})

describe("fairplay-mp70 options: fields", () => {
  it("moves every field, in either variant, and the packets must then be long enough to hold them", () => {
    const fields = { home: "H 30-32", away: "H 60-62", period: "C 30", clock: "C 8-11" }
    const options = decode({ fields, overtimePeriod: 5 })
    const moved = decoderFor("hockey", options)
    expect(moved.push(concat(clockPacket({ clock: "2:05", period: "O" }, options), statePacket({ home: 7, away: 65 }, options)), 1)).toEqual([
      { receivedAt: 1, clock: "2:05", period: 5 },
      { receivedAt: 1, home: 7, away: 65, period: 5, penalties: { home: [], away: [] } }
    ])
    // The H packet must now reach byte 63 (guest at 60–62), the C packet byte 32: the console's own are too short.
    expect(statePacket({ home: 7, away: 65 }, options)).toHaveLength(64)
    expect(clockPacket({ clock: "2:05" }, options)).toHaveLength(32)
    expect(moved.push(concat(clockPacket({ clock: "2:05", period: 1 }), statePacket({ home: 7, away: 65 })), 2)).toEqual([])
    expect(moved.stats.badFrames).toBe(2)

    const prolineFields = { variant: "proline", fields: { home: "H 20-22", away: "H 36-38", period: "H 50", clock: "C 8-11" } } as const
    const proline = decoderFor("hockey", decode(prolineFields))
    expect(proline.push(concat(statePacket({ home: 7, away: 65, period: 4 }, prolineFields), clockPacket({ clock: "2:05" }, prolineFields)), 1)).toEqual([
      { receivedAt: 1, home: 7, away: 65, period: 4 },
      { receivedAt: 1, clock: "2:05" }
    ])
  })

  it("takes one byte as \"C 7\" and a range as \"H 12-14\", the variant's place for every field left out", () => {
    expect(decode({ fields: { period: "C 6" } })).toEqual({ fields: { period: "C 6" } })
    const d = decoderFor("hockey", decode({ fields: { period: "C 6" } }))
    const clock = clockPacket({ clock: "1:00" })
    clock[6] = 0x32
    expect(d.push(clock, 1)).toEqual([{ receivedAt: 1, clock: "1:00", period: 2 }])
  })

  it("rejects what is not \"<C or H> <first>-<last>\", naming the option", () => {
    expect(problem({ fields: { home: "H12-14" } })).toMatch(/"H12-14" is not "<type> <first>-<last>"[^]*\["fields"\]\["home"\]/)
    expect(problem({ fields: { home: "H 14-12" } })).toMatch(/last byte 12 comes before the first 14[^]*\["fields"\]\["home"\]/)
    expect(problem({ fields: { home: 13 } })).toMatch(/\["fields"\]\["home"\]/)
    expect(problem({ fields: { away: "X 38-40" } })).toMatch(/type must be C or H, not X[^]*\["fields"\]\["away"\]/)
    expect(problem({ fields: { away: "h 38-40" } })).toMatch(/upper case: H[^]*\["fields"\]\["away"\]/)
    expect(problem({ fields: { away: "0x35 38-40" } })).toMatch(/type must be C or H, not 0x35[^]*\["fields"\]\["away"\]/)
    expect(problem({ fields: { clock: "C 1-4" } })).toMatch(/STX and the type letter[^]*\["fields"\]\["clock"\]/)
    expect(problem({ fields: { clock: "C 1021-1024" } })).toMatch(/runs past byte 1022[^]*\["fields"\]\["clock"\]/)
    expect(problem({ fields: { guest: "H 38-40" } })).toMatch(/\["fields"\]\["guest"\]/)
  })

  it("rejects a field of the wrong width", () => {
    expect(problem({ fields: { home: "H 10-13" } })).toMatch(/a score is 1 to 3 bytes, not 4[^]*\["fields"\]\["home"\]/)
    expect(problem({ fields: { period: "C 7-8" } })).toMatch(/the period is one byte[^]*\["fields"\]\["period"\]/)
    expect(problem({ fields: { clock: "C 2-4" } })).toMatch(/the clock is 4 bytes \(MMSS\), not 3[^]*\["fields"\]\["clock"\]/)
  })

  it("rejects fields sharing a byte, saying whose place it is", () => {
    expect(problem({ fields: { home: "H 37-39" } })).toMatch(/home at H 37-39 overlaps away at H 38-40 \(its place in variant rink: move it too\)[^]*\["fields"\]\["home"\]/)
    expect(problem({ fields: { period: "C 5" } })).toMatch(/period at C 5 overlaps clock at C 2-5[^]*\["fields"\]\["period"\]/)
    expect(problem({ variant: "proline", fields: { period: "H 31" } })).toMatch(/period at H 31 overlaps away at H 29-31 \(its place in variant proline/)
    expect(problem({ fields: { home: "H 2-4", away: "H 4-6" } })).toMatch(/home at H 2-4 overlaps away at H 4-6/)
    expect(problem({ fields: { home: "H 2-4", away: "H 4-6" } })).not.toMatch(/move it too/)
    // The same bytes in the other packet type are another place.
    expect(problem({ fields: { period: "H 7" } })).toBe("accepted")
  })

  it("never lets a rink penalty slot be read as a field: the period at H 45 is a penalty's minutes", () => {
    expect(problem({ fields: { period: "H 45" } })).toMatch(
      /period at H 45 overlaps the guest penalty slot 1 at H 42-47 \(player, blank, time MSS\) of variant rink: a penalty is never read as period[^]*\["fields"\]\["period"\]/
    )
    expect(problem({ fields: { home: "H 20-22" } })).toMatch(/home penalty slot 1 at H 16-21/)
    // In the ProLine layout the penalty clocks are not read: a field may sit there.
    expect(problem({ variant: "proline", fields: { period: "H 53" } })).toBe("accepted")
  })

  it("rejects the scores in two packet types", () => {
    expect(problem({ fields: { away: "C 20-22" } })).toMatch(/home is in H packets and away in C: both scores must come from one packet type[^]*\["fields"\]\["away"\]/)
  })

  it("tells a config with the old positions or minLength what replaced them; other unknown keys are refused", () => {
    expect(problem({ positions: { home: 13 } })).toMatch(/positions is no longer an option: use fields[^]*\["positions"\]/)
    expect(problem({ minLength: 80 })).toMatch(/minLength is no longer an option: use variant[^]*\["minLength"\]/)
    expect(problem({ overtimePeriod: 0 })).toMatch(/\["overtimePeriod"\]/)
    expect(problem({ varient: "rink" })).toMatch(/\["varient"\]/)
  })

  it("refuses to build a decoder from options that skipped the schema", () => {
    expect(() => fairplayMp70.makeDecoder({ sport: "hockey", fields: { period: "H 45" } })).toThrow(/options\.fields\.period: period at H 45 overlaps the guest penalty slot 1/)
  })
})
