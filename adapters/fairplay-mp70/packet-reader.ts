import type { Reading } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import type { FieldName } from "./options.ts"

const blank = 0x20
const zero = 0x30
/** `O` in the period byte: overtime. */
const overtimeLetter = 0x4f

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

const digitAt = (packet: Uint8Array, i: number): number => {
  const digit = packet[i]! - zero
  if (!(digit >= 0 && digit <= 9)) throw new MalformedFrame(`byte ${i} is not a digit`)
  return digit
}

/**
 * A 3-byte score. Sources show it padded on either side (` 3 `, `12 `, `3  `),
 * so blanks are trimmed from both ends; what is left must be digits. All blank
 * is `undefined` (not shown).
 */
const scoreAt = (packet: Uint8Array, at: number): number | undefined => {
  let start = at
  let end = at + 3
  while (start < end && packet[start] === blank) start++
  while (end > start && packet[end - 1] === blank) end--
  let value: number | undefined
  for (let i = start; i < end; i++) value = (value ?? 0) * 10 + digitAt(packet, i)
  return value
}

/** A digit is that period in every sport; `O` is the place's overtime period; blank is not shown. */
const periodAt = (packet: Uint8Array, at: number, overtimePeriod: number): number | undefined => {
  const byte = packet[at]
  if (byte === blank) return undefined
  if (byte === overtimeLetter) return overtimePeriod
  return digitAt(packet, at)
}

/** `MMSS`, minutes possibly blank-padded (` 959` = 9:59); all blank is `undefined`. */
const clockAt = (packet: Uint8Array, at: number): string | undefined => {
  let minutes = ""
  for (let i = at; i < at + 2; i++) {
    if (packet[i] === blank && minutes === "") continue
    minutes += String(digitAt(packet, i))
  }
  if (minutes === "" && packet[at + 2] === blank && packet[at + 3] === blank) return undefined
  const tens = digitAt(packet, at + 2)
  const ones = digitAt(packet, at + 3)
  if (tens > 5) throw new MalformedFrame(`seconds ${tens}${ones} at byte ${at + 2}`)
  return `${minutes === "" ? "0" : minutes}:${tens}${ones}`
}

/** A type `C` packet: the clock only (never part of a score). */
export const readClock = (packet: Uint8Array, positions: Readonly<Record<FieldName, number>>, receivedAt: number): Reading => {
  const clock = clockAt(packet, positions.clock)
  return clock === undefined ? { receivedAt } : { receivedAt, clock }
}

/** A type `H` packet: the score and the period. Throws `MalformedFrame` for anything not shown as documented. */
export const readState = (
  packet: Uint8Array,
  positions: Readonly<Record<FieldName, number>>,
  overtimePeriod: number,
  receivedAt: number
): Reading => {
  const reading: Draft = { receivedAt }
  const home = scoreAt(packet, positions.home)
  const away = scoreAt(packet, positions.guest)
  if ((home === undefined) !== (away === undefined)) throw new MalformedFrame("one score blank")
  if (home !== undefined && away !== undefined) {
    reading.home = home
    reading.away = away
  }
  const period = periodAt(packet, positions.period, overtimePeriod)
  if (period !== undefined) reading.period = period
  return reading
}
