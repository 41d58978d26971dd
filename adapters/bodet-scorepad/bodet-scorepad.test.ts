import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { protocols } from "../registry.ts"
import { frame, message11, penalties } from "./encode.ts"
import { bodetScorepad } from "./index.ts"
import { hex } from "../../scripts/support/bytes.ts"
import { concat, decoderFor, docFrame, withBytes } from "./test-support.ts"

const text = (at: number, s: string) => Object.fromEntries(Array.from(s, (c, i) => [at + i, c.charCodeAt(0)]))

describe("bodet-scorepad message 11", () => {
  it("is found through the registry", () => {
    expect(protocols["bodet-scorepad"]).toBe(bodetScorepad)
    expect(bodetScorepad).toMatchObject({ updates: "full", serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 } })
    expect([...bodetScorepad.sports].sort()).toEqual(["basketball", "futsal", "handball", "hockey", "unihockey"])
  })

  it("decodes the protocol note's example frame: 1:34, 0–0, period 1", () => {
    const d = decoderFor()
    expect(docFrame.length).toBe(21)
    expect(d.push(docFrame, 1000)).toEqual([{ receivedAt: 1000, home: 0, away: 0, period: 1, clock: "1:34" }])
    expect(d.stats).toEqual({ frames: 1, badFrames: 0, overlong: 0, skippedBytes: 0, otherMessages: 0 })
  })

  it("encodes the example frame byte for byte, LRC 0x2b included", () => {
    expect(message11({ status: 0x82, sportDigit: "7", clock: "1:34", home: 0, away: 0, period: 1 })).toEqual(docFrame)
  })

  it("decodes the open-source parser's example frame: 4:07, 1–0, period 1 (LRC 0x2d)", () => {
    const example = hex("01 7f 02 47 31 31 80 37 20 34 30 37 20 30 31 20 30 30 31 03 2d")
    expect(decoderFor().push(example, 5)).toEqual([{ receivedAt: 5, home: 1, away: 0, period: 1, clock: "4:07" }])
  })

  it("reads three-digit scores and a blank-padded clock; the status byte is not read", () => {
    const d = decoderFor("basketball")
    const readings = d.push(concat(
      message11({ status: 0x80, clock: "10:00", home: 102, away: 99, period: 4 }),
      message11({ status: 0x82, clock: "0:07", home: 7, away: 110, period: 2 })
    ), 3)
    expect(readings).toEqual([
      { receivedAt: 3, home: 102, away: 99, period: 4, clock: "10:00" },
      { receivedAt: 3, home: 7, away: 110, period: 2, clock: "0:07" }
    ])
  })

  it("leaves out what is blank: scores (not shown), period, clock", () => {
    const d = decoderFor()
    expect(d.push(message11({}), 1)).toEqual([{ receivedAt: 1 }])
    expect(d.push(message11({ home: 3, away: 1 }), 2)).toEqual([{ receivedAt: 2, home: 3, away: 1 }])
    expect(d.stats).toMatchObject({ frames: 2, badFrames: 0 })
  })

  it("rejects a score that is not blank-padded digits, or blank on one side only: bad frame, no reading", () => {
    const d = decoderFor()
    const bad = [
      withBytes(docFrame, text(13, "x")),
      withBytes(docFrame, text(15, "1 2")),
      withBytes(docFrame, text(12, "   ")),
      withBytes(docFrame, text(15, "  -"))
    ].map(relrc)
    expect(d.push(concat(...bad), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: bad.length })
  })

  it("never reads a score from a flag byte: bit 7 on a digit leaves the LRC valid, the frame is still bad", () => {
    // The LRC drops bit 7, so it cannot see this: the digit check must.
    const flagged = withBytes(docFrame, { 14: 0x30 | 0x80 })
    expect(flagged[20]).toBe(docFrame[20])
    const d = decoderFor()
    expect(d.push(flagged, 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 1 })
  })

  it("leaves out an unreadable clock but keeps the score (the clock is never a score)", () => {
    const odd = relrc(withBytes(docFrame, text(8, "1:34")))
    expect(decoderFor().push(odd, 1)).toEqual([{ receivedAt: 1, home: 0, away: 0, period: 1 }])
  })

  it("posts an operator's correction: a score going down is a reading like any other", () => {
    const d = decoderFor()
    const readings = d.push(concat(message11({ home: 3, away: 2, period: 2 }), message11({ home: 2, away: 2, period: 2 })), 1)
    expect(readings.map((r) => [r.home, r.away])).toEqual([[3, 2], [2, 2]])
  })

  it("rejects a message 11 of another length", () => {
    const d = decoderFor()
    expect(d.push(concat(frame("11", "\x807 134 00 001 "), frame("11", "\x807 134 00 00")), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 2 })
  })
})

/** Recomputes the LRC after an edit, with the protocol note's rule. */
function relrc(bytes: Uint8Array): Uint8Array {
  return frame("11", bytes.subarray(6, bytes.length - 2), { address: bytes[1]! })
}

describe("bodet-scorepad LRC", () => {
  it("drops every frame whose LRC byte is wrong, whatever the wrong value", () => {
    for (let lrc = 0; lrc < 256; lrc++) {
      if (lrc === docFrame[20] || lrc === 0x01) continue
      const d = decoderFor()
      expect(d.push(withBytes(docFrame, { 20: lrc }), 1), `LRC 0x${lrc.toString(16)}`).toEqual([])
      expect(d.stats).toMatchObject({ frames: 0, badFrames: 1 })
    }
  })

  it("drops a frame with a changed data byte", () => {
    const d = decoderFor()
    // 0–0 made 1–0 without a new LRC.
    expect(d.push(withBytes(docFrame, text(14, "1")), 1)).toEqual([])
    expect(d.stats.badFrames).toBe(1)
  })

  it("adds 0x20 to an LRC below 0x20", () => {
    // 7f^02^47^31^32^80^81^30^30^30^03 = 0x0b: sent as 0x2b.
    const lifted = hex("01 7f 02 47 31 32 80 81 30 30 30 03 2b")
    expect(penalties("12", [{ left: "0:00", running: true }])).toEqual(lifted)
    const d = decoderFor()
    d.push(lifted, 1)
    d.push(withBytes(lifted, { 12: 0x0b }), 1)
    expect(d.stats).toMatchObject({ badFrames: 1, otherMessages: 1 })

    // The same in a message 11: status 0xA2 makes the XOR 0x0b, sent as 0x2b.
    const status = withBytes(docFrame, { 6: 0xa2 })
    const m = decoderFor()
    expect(m.push(status, 2)).toEqual([{ receivedAt: 2, home: 0, away: 0, period: 1, clock: "1:34" }])
    expect(m.push(withBytes(status, { 20: 0x0b }), 3)).toEqual([])
    expect(m.stats).toMatchObject({ frames: 1, badFrames: 1 })
  })
})

describe("bodet-scorepad other frames", () => {
  it("skips other message types, even with digits where message 11 has its score: never an entry, never bad", () => {
    const d = decoderFor()
    const others = [
      penalties("12", [{ left: "2:00", running: true }, { left: "1:15", running: false }]),
      penalties("13", [{ left: "0:45", running: true }]),
      frame("14", "\x80 12 045 099 1"),
      frame("15", "\x80\x8112"),
      frame("16", "     "),
      frame("20", "HOME      GUEST     "),
      // As long as a message 11, digits at 12–17: only the type says what it is.
      frame("12", "\x807 134 05 071")
    ]
    expect(others.at(-1)!.length).toBe(21)
    expect(d.push(concat(...others, docFrame), 1)).toEqual([{ receivedAt: 1, home: 0, away: 0, period: 1, clock: "1:34" }])
    expect(d.stats).toEqual({
      frames: 1,
      badFrames: 0,
      overlong: 0,
      skippedBytes: others.reduce((n, f) => n + f.length, 0),
      otherMessages: others.length
    })
  })

  it("reads frames from any address (0x7F and 0xFF are seen)", () => {
    const d = decoderFor()
    const readings = d.push(concat(...[0x7f, 0xff, 0x30].map((address) => message11({ home: address % 10, away: 1 }, { address }))), 1)
    expect(readings.map((r) => r.home)).toEqual([7, 5, 8])
  })

  it("counts broken structure as bad: no STX, another group, a type that is not two digits", () => {
    const d = decoderFor()
    const broken = [withBytes(docFrame, { 2: 0x20 }), withBytes(docFrame, { 3: 0x48 }), withBytes(docFrame, { 4: 0x41 })]
      // Each with a correct LRC, so only the structure is wrong.
      .map((f) => withBytes(f, { 20: lrcOf(f) }))
    expect(d.push(concat(...broken, hex("01 7f 02 03 20")), 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 4, otherMessages: 0 })
  })
})

function lrcOf(f: Uint8Array): number {
  let x = 0
  for (let i = 1; i < f.length - 1; i++) x ^= f[i]!
  x &= 0x7f
  return x < 0x20 ? x + 0x20 : x
}

describe("bodet-scorepad period letters", () => {
  const extraTime = (sport: string, options = {}) => decoderFor(sport, options).push(message11({ home: 2, away: 2, period: "E" }), 1)[0]?.period

  it("maps 'E' to the sport's last regular period + 1", () => {
    expect(Object.fromEntries(["unihockey", "hockey", "handball", "futsal", "basketball"].map((s) => [s, extraTime(s)])))
      .toEqual({ unihockey: 4, hockey: 4, handball: 3, futsal: 3, basketball: 5 })
  })

  it("reads digits as they are", () => {
    const d = decoderFor()
    expect(Array.from("0123456789", (p) => d.push(message11({ home: 0, away: 0, period: p }), 1)[0]?.period)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it("rejects a letter with no mapping: a half-understood frame makes no entry", () => {
    for (const letter of ["X", "P", "e"]) {
      const d = decoderFor()
      expect(d.push(message11({ home: 1, away: 1, period: letter }), 1)).toEqual([])
      expect(d.stats).toMatchObject({ frames: 0, badFrames: 1 })
    }
    // A sport with no table knows no letter at all.
    expect(decoderFor("soccer").push(message11({ home: 1, away: 1, period: "E" }), 1)).toEqual([])
  })

  it("takes periodLetters over the default", () => {
    const options = Schema.decodeUnknownSync(bodetScorepad.optionsSchema)({ periodLetters: { E: 5, P: 4 } })
    expect(extraTime("unihockey", options)).toBe(5)
    expect(decoderFor("unihockey", options).push(message11({ home: 0, away: 0, period: "P" }), 1)[0]?.period).toBe(4)
  })
})

describe("bodet-scorepad options", () => {
  const decode = Schema.decodeUnknownSync(bodetScorepad.optionsSchema)

  it("decodes {} (sniff tries every protocol with no options)", () => {
    expect(decode({})).toEqual({})
  })

  it("reads only the configured sport digit; other sports' message 11 are skipped, not bad", () => {
    const d = decoderFor("unihockey", decode({ sportDigit: "7" }))
    const handball = message11({ sportDigit: "4", home: 20, away: 19, period: 2 })
    expect(d.push(concat(handball, docFrame), 1).map((r) => r.home)).toEqual([0])
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, otherMessages: 1, skippedBytes: handball.length })
    // Without the option any sport digit is read.
    expect(decoderFor().push(handball, 1).map((r) => r.home)).toEqual([20])
  })

  it("rejects what cannot be a sport digit or a period letter", () => {
    expect(() => decode({ sportDigit: "77" })).toThrow(/sportDigit must be one digit/u)
    expect(() => decode({ sportDigit: 7 })).toThrow()
    expect(() => decode({ periodLetters: { EE: 4 } })).toThrow(/periodLetters: "EE" is not one printable character/u)
    expect(() => decode({ periodLetters: { "1": 4 } })).toThrow(/periodLetters: "1"/u)
    expect(() => decode({ periodLetters: { " ": 4 } })).toThrow(/periodLetters: " "/u)
    expect(() => decode({ periodLetters: { E: 0 } })).toThrow()
    expect(() => decode({ periodLetters: { E: 2.5 } })).toThrow()
  })
})
