import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { FieldRangeError, FieldRangeText, formatFieldRange, overlap, parseFieldRange, widthOf } from "./field-ranges.ts"

describe("field ranges: \"<type> <first>-<last>\"", () => {
  it("reads a letter type (Fair-Play) and a 0x-hex type (Stramatel's sport code), a range or one byte", () => {
    expect(parseFieldRange("H 12-14")).toEqual({ type: "H", typeByte: 0x48, first: 12, last: 14 })
    expect(parseFieldRange("C 7")).toEqual({ type: "C", typeByte: 0x43, first: 7, last: 7 })
    expect(parseFieldRange("0x35 9-10")).toEqual({ type: "0x35", typeByte: 0x35, first: 9, last: 10 })
    expect(parseFieldRange("0X3a 14")).toEqual({ type: "0X3a", typeByte: 0x3a, first: 14, last: 14 })
    // Forgiving about spacing and the dash a README table shows.
    expect(parseFieldRange("  H  12 - 14 ")).toMatchObject({ first: 12, last: 14 })
    expect(parseFieldRange("H 12–14")).toMatchObject({ first: 12, last: 14 })
  })

  it("says what is wrong, without naming the option (the adapter does)", () => {
    const wrong = (text: string) => {
      try {
        parseFieldRange(text)
        return "accepted"
      } catch (error) {
        expect(error).toBeInstanceOf(FieldRangeError)
        return (error as Error).message
      }
    }
    expect(wrong("H12-14")).toBe("\"H12-14\" is not \"<type> <first>-<last>\" (e.g. \"H 12-14\", \"0x35 9-10\", one byte as \"C 7\")")
    expect(wrong("")).toMatch(/is not "<type> <first>-<last>"/)
    expect(wrong("H 12-")).toMatch(/is not/)
    expect(wrong("H -3")).toMatch(/is not/)
    expect(wrong("HH 12-14")).toMatch(/the type "HH" must be one letter \(C, H\) or one byte in 0x-hex \(0x35\)/)
    expect(wrong("0x123 1")).toMatch(/the type "0x123"/)
    expect(wrong("53 9-10")).toMatch(/the type "53"/)
    expect(wrong("H 14-12")).toMatch(/the last byte 12 comes before the first 14/)
    expect(wrong("H 10000")).toMatch(/bytes past 9999/)
  })

  it("writes a range back as it is read, and compares ranges by type and bytes", () => {
    for (const text of ["H 12-14", "C 7", "0x35 9-10"]) expect(formatFieldRange(parseFieldRange(text))).toBe(text)
    expect(widthOf(parseFieldRange("H 12-14"))).toBe(3)
    expect(overlap(parseFieldRange("H 12-14"), parseFieldRange("H 14"))).toBe(true)
    expect(overlap(parseFieldRange("H 12-14"), parseFieldRange("H 15-16"))).toBe(false)
    expect(overlap(parseFieldRange("H 12-14"), parseFieldRange("C 12-14"))).toBe(false)
    expect(overlap(parseFieldRange("0x35 9-10"), parseFieldRange("0x35 10"))).toBe(true)
  })

  it("is a Schema for an options block: the parser's message on a bad value", () => {
    const decode = Schema.decodeUnknownResult(Schema.Struct({ home: FieldRangeText }))
    expect(decode({ home: "H 12-14" })._tag).toBe("Success")
    const failed = decode({ home: "H 12" + "x" })
    expect(failed._tag === "Failure" ? failed.failure.message : "").toMatch(/"H 12x" is not "<type> <first>-<last>"[^]*\["home"\]/)
  })
})
