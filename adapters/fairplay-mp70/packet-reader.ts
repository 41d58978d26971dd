import type { Penalty, Reading } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { type PenaltySlot, type Placed } from "./variants.ts"

const blank = 0x20
const zero = 0x30
/** `O` in the period byte: overtime. */
const overtimeLetter = 0x4f

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= zero && byte <= zero + 9

const digitAt = (packet: Uint8Array, i: number): number => {
  if (!isDigit(packet[i])) throw new MalformedFrame(`byte ${i} is not a digit`)
  return packet[i]! - zero
}

/**
 * A score: the digits between the blanks of its field (` 3 `, `12 `, ` 12`,
 * `123`); all blank is `undefined` (not shown). Digits split by a blank or
 * anything but a digit, and a digit just outside the field (`edges`: the
 * number runs past it), make the packet bad: a score is never guessed.
 */
export const scoreIn = (packet: Uint8Array, { first, last }: Placed, edges: ReadonlyArray<number>): number | undefined => {
  let start = first
  let end = last + 1
  while (start < end && packet[start] === blank) start++
  while (end > start && packet[end - 1] === blank) end--
  for (const i of edges) if (isDigit(packet[i])) throw new MalformedFrame(`a digit at byte ${i}, beside the score at ${first}–${last}`)
  if (start === end) return undefined
  let value = 0
  for (let i = start; i < end; i++) value = value * 10 + digitAt(packet, i)
  return value
}

/** A digit is that period in every sport; `O` is the place's overtime period; blank is not shown. */
export const periodIn = (packet: Uint8Array, at: number, overtimePeriod: number): number | undefined => {
  const byte = packet[at]
  if (byte === blank) return undefined
  if (byte === overtimeLetter) return overtimePeriod
  return digitAt(packet, at)
}

/** `MMSS`, minutes possibly blank-padded (` 959` = 9:59); all blank is `undefined`. */
export const clockIn = (packet: Uint8Array, at: number): string | undefined => {
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

const allBlank = (packet: Uint8Array, from: number, to: number) => {
  for (let i = from; i < to; i++) if (packet[i] !== blank) return false
  return true
}

/**
 * A rink penalty slot: player (2 bytes, blank-padded), a blank, time left
 * `MSS` (`100` = 1:00, `045` or ` 45` = 0:45). All blank is no penalty; a
 * blank player is a penalty without a number; anything else is a bad packet.
 */
const penaltyIn = (packet: Uint8Array, at: number): Penalty | undefined => {
  if (allBlank(packet, at, at + 6)) return undefined
  if (packet[at + 2] !== blank) throw new MalformedFrame(`byte ${at + 2} of a penalty slot is not blank`)
  let player: number | undefined
  for (let i = at; i < at + 2; i++) {
    if (packet[i] === blank && player === undefined) continue
    player = (player ?? 0) * 10 + digitAt(packet, i)
  }
  const minutes = packet[at + 3] === blank ? 0 : digitAt(packet, at + 3)
  const tens = digitAt(packet, at + 4)
  const ones = digitAt(packet, at + 5)
  if (tens > 5) throw new MalformedFrame(`penalty seconds ${tens}${ones} at byte ${at + 4}`)
  const remaining = `${minutes}:${tens}${ones}`
  return player === undefined ? { remaining } : { player, remaining }
}

/** The running penalties of both teams, in slot order. */
export const penaltiesIn = (packet: Uint8Array, slots: ReadonlyArray<PenaltySlot>): NonNullable<Reading["penalties"]> => {
  const home: Array<Penalty> = []
  const away: Array<Penalty> = []
  for (const slot of slots) {
    const penalty = penaltyIn(packet, slot.at)
    if (penalty !== undefined) (slot.side === "home" ? home : away).push(penalty)
  }
  return { home, away }
}
