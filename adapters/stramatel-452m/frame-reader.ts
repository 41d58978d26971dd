import type { GamePoint, Reading, Side } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { blankPaddedNumber } from "../shared/fixed-width.ts"
import type { Digits, Layout, Sides } from "./layouts.ts"
import { clockAt, digitPairAt, isOn, penaltiesAt } from "./side-fields.ts"

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

const pairOf = <A>(home: A | undefined, away: A | undefined): readonly [A, A] | undefined => {
  if (home === undefined && away === undefined) return undefined
  if (home === undefined || away === undefined) throw new MalformedFrame("one side blank")
  return [home, away]
}

const digitsPair = (frame: Uint8Array, base: number, sides: Sides<Digits>) =>
  pairOf(blankPaddedNumber(frame, base + sides.home.at, sides.home.width), blankPaddedNumber(frame, base + sides.away.at, sides.away.width))

const gamePointText: Readonly<Record<string, GamePoint>> = { "0": "0", "00": "0", "15": "15", "30": "30", "40": "40", "A": "AD", "AD": "AD" }

const gamePointAt = (frame: Uint8Array, field: Digits, tieBreak: boolean): GamePoint | undefined => {
  if (tieBreak) return blankPaddedNumber(frame, field.at, field.width)
  const text = String.fromCharCode(...frame.subarray(field.at, field.at + field.width)).trim().toUpperCase()
  if (text === "") return undefined
  const point = gamePointText[text]
  if (point === undefined) throw new MalformedFrame(`game points ${JSON.stringify(text)}`)
  return point
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

const shifted = (base: number, field: Digits): Digits => ({ at: base + field.at, width: field.width })

/**
 * Reads the frame starting at `base` with `layout`. Score, period and set fields
 * not shown as documented (a non-digit, one side of a pair blank) throw
 * `MalformedFrame`: a half-understood frame must never become a score. What is
 * shown beside the score (clock, penalties, fouls, time-outs) is left out instead.
 */
export const readFrame = (frame: Uint8Array, base: number, layout: Layout, receivedAt: number): Reading => {
  const reading: Draft = { receivedAt }
  if (layout.score !== undefined) {
    const score = digitsPair(frame, base, layout.score)
    if (score !== undefined) [reading.home, reading.away] = score
  }
  if (layout.gamePoints !== undefined) {
    const { away, home, tieBreak: flag } = layout.gamePoints
    const tieBreak = isOn(frame[base + flag])
    reading.tieBreak = tieBreak
    const points = pairOf(gamePointAt(frame, shifted(base, home), tieBreak), gamePointAt(frame, shifted(base, away), tieBreak))
    if (points !== undefined) reading.gamePoints = points
  }
  const period = layout.period === undefined ? undefined : blankPaddedNumber(frame, base + layout.period.at, layout.period.width)
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
  const showsTimeOfDay = layout.timeOfDay !== undefined && isOn(frame[base + layout.timeOfDay])
  if (layout.clock !== undefined && !showsTimeOfDay) {
    const clock = clockAt(frame, base + layout.clock)
    if (clock !== undefined) reading.clock = clock
  }
  if (layout.penalties !== undefined) reading.penalties = penaltiesAt(frame, base, layout.penalties)
  if (layout.teamFouls !== undefined) {
    const fouls = digitPairAt(frame, { home: base + layout.teamFouls.home, away: base + layout.teamFouls.away })
    if (fouls !== undefined) reading.teamFouls = fouls
  }
  if (layout.timeouts !== undefined) {
    const timeouts = digitPairAt(frame, { home: base + layout.timeouts.home, away: base + layout.timeouts.away })
    if (timeouts !== undefined) reading.timeouts = timeouts
  }
  return reading
}
