import type { GamePoint, Reading, Side } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { blankPaddedNumber } from "../shared/fixed-width.ts"
import type { Digits, Layout, Sides } from "./layouts.ts"

const blank = 0x20
const zero = 0x30
const tieBreakOn = 0x31

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

const pairOf = <A>(home: A | undefined, away: A | undefined): readonly [A, A] | undefined => {
  if (home === undefined && away === undefined) return undefined
  if (home === undefined || away === undefined) throw new MalformedFrame("one side blank")
  return [home, away]
}

const digitsPair = (frame: Uint8Array, base: number, sides: Sides<Digits>) =>
  pairOf(blankPaddedNumber(frame, base + sides.home.at, sides.home.width), blankPaddedNumber(frame, base + sides.away.at, sides.away.width))

const gamePointText: Readonly<Record<string, GamePoint>> = { "0": "0", "00": "0", "15": "15", "30": "30", "40": "40", "A": "AD", "AD": "AD" }

const gamePointAt = (frame: Uint8Array, at: number, tieBreak: boolean): GamePoint | undefined => {
  if (tieBreak) return blankPaddedNumber(frame, at, 2)
  const text = String.fromCharCode(frame[at]!, frame[at + 1]!).trim().toUpperCase()
  if (text === "") return undefined
  const point = gamePointText[text]
  if (point === undefined) throw new MalformedFrame(`game points ${JSON.stringify(text)}`)
  return point
}

const isDigitOrBlank = (byte: number) => byte === blank || (byte >= zero && byte <= zero + 9)

/** `MMSS`, or `SSt` + blank under a minute; the clock is never a score, so an odd one is just left out. */
const clockAt = (frame: Uint8Array, at: number): string | undefined => {
  for (let i = at; i < at + 4; i++) if (!isDigitOrBlank(frame[i]!)) return undefined
  const text = String.fromCharCode(frame[at]!, frame[at + 1]!, frame[at + 2]!, frame[at + 3]!)
  if (text.trim() === "") return undefined
  if (frame[at + 3] === blank) return frame[at + 2] === blank ? undefined : `${text.slice(0, 2).trim() || "0"}.${text[2]}`
  return `${text.slice(0, 2).trim() || "0"}:${text.slice(2, 4).replace(" ", "0")}`
}

const serveAt = (byte: number | undefined): Side | undefined =>
  byte === 0x31 || byte === 0x32 ? "home" : byte === 0x33 || byte === 0x34 ? "away" : undefined

/**
 * Finished sets come from their slots; the set in play from its live tally.
 * Slots of sets not yet reached are never read (some consoles fill them with
 * zeros); a blank or 0–0 slot of an earlier set ends the list there, since
 * no finished set is 0–0.
 */
const setsAt = (frame: Uint8Array, base: number, layout: Layout, period: number | undefined) => {
  const { currentSet, setSlots } = layout
  if (period === undefined || period === 0 || setSlots === undefined || currentSet === undefined) return undefined
  const sets: Array<readonly [number, number]> = []
  for (let set = 1; set < period; set++) {
    const slot = setSlots[set - 1]
    if (slot === undefined) return sets
    const tally = pairOf(blankPaddedNumber(frame, base + slot.home, 2), blankPaddedNumber(frame, base + slot.away, 2))
    if (tally === undefined || (tally[0] === 0 && tally[1] === 0)) return sets
    sets.push(tally)
  }
  const live = digitsPair(frame, base, currentSet)
  if (live !== undefined) sets.push(live)
  return sets
}

/** Reads the frame starting at `base` with `layout`; throws `MalformedFrame` for anything not shown as documented. */
export const readFrame = (frame: Uint8Array, base: number, layout: Layout, receivedAt: number): Reading => {
  const reading: Draft = { receivedAt }
  if (layout.score !== undefined) {
    const score = digitsPair(frame, base, layout.score)
    if (score !== undefined) [reading.home, reading.away] = score
  }
  if (layout.gamePoints !== undefined) {
    const { away, home, tieBreak: flag } = layout.gamePoints
    const tieBreak = frame[base + flag] === tieBreakOn
    reading.tieBreak = tieBreak
    const points = pairOf(gamePointAt(frame, base + home, tieBreak), gamePointAt(frame, base + away, tieBreak))
    if (points !== undefined) reading.gamePoints = points
  }
  const period = layout.period === undefined ? undefined : blankPaddedNumber(frame, base + layout.period, 1)
  if (period !== undefined) reading.period = period
  if (layout.setsWon !== undefined) {
    const { away, home } = layout.setsWon
    const setsWon = pairOf(blankPaddedNumber(frame, base + home, 1), blankPaddedNumber(frame, base + away, 1))
    if (setsWon !== undefined) reading.setsWon = setsWon
  }
  const sets = setsAt(frame, base, layout, period)
  if (sets !== undefined) reading.sets = sets
  if (layout.serve !== undefined) {
    const serve = serveAt(frame[base + layout.serve])
    if (serve !== undefined) reading.serve = serve
  }
  if (layout.clock !== undefined) {
    const clock = clockAt(frame, base + layout.clock)
    if (clock !== undefined) reading.clock = clock
  }
  return reading
}
