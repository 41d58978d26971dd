import type { Reading } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { blankPaddedNumber } from "../shared/fixed-width.ts"

/**
 * Message 11 (clock, score, period), offsets from SOH. Byte 6 is a status
 * byte with bit 7 set (0x80, 0x82 seen) whose bits are not documented for
 * this message: never read.
 */
export const message11 = {
  length: 21,
  status: 6,
  sport: 7,
  clock: 8,
  home: 12,
  away: 15,
  score: 3,
  period: 18
} as const

const blank = 0x20
const zero = 0x30

const isDigit = (byte: number) => byte >= zero && byte <= zero + 9

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

/** `mmss`, blank-padded (" 134" is 1:34). The clock is never a score: an odd one is left out, not fatal. */
const clockAt = (frame: Uint8Array, at: number): string | undefined => {
  let text = ""
  for (let i = at; i < at + 4; i++) {
    const byte = frame[i]!
    if (byte !== blank && !isDigit(byte)) return undefined
    text += String.fromCharCode(byte)
  }
  if (text.trim() === "") return undefined
  return `${text.slice(0, 2).trim() || "0"}:${text.slice(2).replaceAll(" ", "0")}`
}

/** A digit, a known extra-time letter, or blank (not shown); any other byte throws. */
const periodAt = (byte: number, letters: ReadonlyMap<number, number>): number | undefined => {
  if (byte === blank) return undefined
  if (isDigit(byte)) return byte - zero
  const period = letters.get(byte)
  if (period === undefined) throw new MalformedFrame(`period ${JSON.stringify(String.fromCharCode(byte))} has no mapping`)
  return period
}

/** One whole message-11 frame (LRC already checked) → Reading; throws `MalformedFrame` for anything not shown as documented. */
export const readMessage11 = (frame: Uint8Array, receivedAt: number, letters: ReadonlyMap<number, number>): Reading => {
  const reading: Draft = { receivedAt }
  const home = blankPaddedNumber(frame, message11.home, message11.score)
  const away = blankPaddedNumber(frame, message11.away, message11.score)
  if ((home === undefined) !== (away === undefined)) throw new MalformedFrame("one side of the score blank")
  if (home !== undefined && away !== undefined) {
    reading.home = home
    reading.away = away
  }
  const period = periodAt(frame[message11.period]!, letters)
  if (period !== undefined) reading.period = period
  const clock = clockAt(frame, message11.clock)
  if (clock !== undefined) reading.clock = clock
  return reading
}
