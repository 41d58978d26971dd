import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { checksum, checksumDigits } from "./checksum.ts"
import { frame } from "./encode.ts"
import { daktronicsRtd } from "./index.ts"
import { ascii, hex } from "../../scripts/support/bytes.ts"
import { concat, decoderFor, statsOf } from "./test-support.ts"

const T = 5
const scores = frame(111, "   9")
/** A body wrapped in SYN … ETB with a correct checksum, whatever it contains. */
const withChecksum = (summed: string) => {
  const body = ascii(summed)
  return concat(ascii("\x16"), body, ascii(checksumDigits(checksum(body))), ascii("\x17"))
}

describe("daktronics-rtd: encoder", () => {
  it("reproduces the real and synthetic frames of the protocol notes byte for byte", () => {
    expect(frame(107, "  41")).toEqual(hex("16 30 30 30 30 30 30 30 30 01 30 30 34 32 31 30 30 31 30 37 02 20 20 34 31 04 31 42 17"))
    expect(frame(111, "  96")).toEqual(hex("16 30 30 30 30 30 30 30 30 01 30 30 34 32 31 30 30 31 31 31 02 20 20 39 36 04 32 30 17"))
    expect(frame(141, " 3")).toEqual(hex("16 30 30 30 30 30 30 30 30 01 30 30 34 32 31 30 30 31 34 31 02 20 33 04 43 37 17"))
  })
})

describe("daktronics-rtd: framing and validation", () => {
  it("stamps a frame split across reads with the arrival of its first part", () => {
    const decoder = decoderFor("basketball")
    decoder.push(concat(frame(107, "  10"), scores), 1)
    const home = frame(107, "  12")
    expect(decoder.push(home.subarray(0, 9), 100)).toEqual([])
    expect(decoder.push(concat(home.subarray(9), frame(111, "  30")), 130)).toEqual([
      { receivedAt: 100, home: 12, away: 9 },
      { receivedAt: 130, home: 12, away: 30 }
    ])
  })

  it("drops and counts a frame with a corrupted checksum or data byte", () => {
    const decoder = decoderFor("basketball")
    const badSum = frame(107, "  12")
    badSum[badSum.length - 2] = 0x30
    const badData = frame(107, "  13")
    badData[22] = 0x39
    expect(decoder.push(concat(badSum, badData, scores), T)).toEqual([])
    expect(decoder.stats).toMatchObject({ frames: 1, badFrames: 2 })
    expect(decoder.push(frame(107, "  14"), T)).toEqual([{ receivedAt: T, home: 14, away: 9 }])
  })

  it("discards an overlong frame and decodes the next good one", () => {
    const decoder = decoderFor("basketball", { maxFrameBytes: 64 })
    const long = frame(300, "x".repeat(100))
    expect(decoder.push(concat(long, frame(107, "  12"), scores), T)).toEqual([{ receivedAt: T, home: 12, away: 9 }])
    expect(decoder.stats).toMatchObject({ overlong: 1, frames: 2, badFrames: 0 })
  })

  it("accepts a frame of exactly maxFrameBytes and bounds the default at 4096", () => {
    const exact = frame(300, "y".repeat(64 - frame(300, "").length))
    const small = decoderFor("basketball", { maxFrameBytes: 64 })
    small.push(exact, T)
    expect(small.stats).toMatchObject({ frames: 1, overlong: 0 })
    const byDefault = decoderFor("basketball")
    byDefault.push(concat(frame(0, "z".repeat(4096)), frame(107, "   1"), scores), T)
    expect(byDefault.stats).toMatchObject({ overlong: 1, frames: 2 })
  })

  it("skips garbage between frames and a frame cut off by the next SYN", () => {
    const decoder = decoderFor("basketball")
    const garbage = ascii("\r\nNOISE\x04\x17 ")
    const cut = frame(107, "  77").subarray(0, 15)
    const readings = decoder.push(concat(garbage, frame(107, "  12"), garbage, cut, scores, garbage), T)
    expect(readings).toEqual([{ receivedAt: T, home: 12, away: 9 }])
    expect(decoder.stats).toMatchObject({ frames: 2, badFrames: 0, skippedBytes: 3 * garbage.length + cut.length })
  })

  it("counts a non-data frame apart from data frames", () => {
    const decoder = decoderFor("basketball")
    decoder.push(hex("16 30 30 30 30 30 30 30 30 01 30 30 33 30 31 30 30 30 36 04 33 46 17"), T)
    expect(statsOf(decoder)).toMatchObject({ frames: 0, badFrames: 0, nonDataFrames: 1 })
  })

  it("rejects frames whose checksum holds but whose structure does not", () => {
    const decoder = decoderFor("basketball")
    decoder.push(concat(
      withChecksum("00000000\x010042100abc\x02  12\x04"),
      withChecksum("0000X000\x010042100107\x02  12\x04"),
      withChecksum("00000000\x010042100107  12\x04"),
      withChecksum("00000000\x01\x04")
    ), T)
    expect(statsOf(decoder)).toMatchObject({ frames: 0, badFrames: 3, nonDataFrames: 1 })
  })
})

describe("daktronics-rtd: definition", () => {
  it("declares 19200 8N1 and the sports it reads", () => {
    expect(daktronicsRtd.serialDefaults).toEqual({ baudRate: 19200, dataBits: 8, parity: "none", stopBits: 1 })
    expect(daktronicsRtd.sports).toEqual(expect.arrayContaining(["basketball", "volleyball", "tennis", "football", "hockey", "soccer", "baseball"]))
  })

  it("decodes its options block", () => {
    const decode = Schema.decodeUnknownSync(daktronicsRtd.optionsSchema)
    expect(decode({})).toEqual({})
    expect(decode({ volleyballPoints: "game", tennisPoints: "score" })).toEqual({ volleyballPoints: "game", tennisPoints: "score" })
    expect(() => decode({ volleyballPoints: "live" })).toThrow()
    expect(() => decode({ tennisPoints: "game" })).toThrow()
  })
})
