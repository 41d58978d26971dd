import type { Penalty } from "../../src/domain/reading.ts"
import type { Layout, Sides } from "./layouts.ts"

/**
 * What a board shows beside the score: the clock, penalties, team fouls,
 * time-outs. None of it is ever part of a score, so a field not shown as
 * documented is left out of the reading rather than rejecting the frame.
 */
const blank = 0x20
const zero = 0x30
const on = 0x31

const digitAt = (frame: Uint8Array, at: number): number | undefined => {
  const digit = frame[at]! - zero
  return digit >= 0 && digit <= 9 ? digit : undefined
}

/** A digit, or 0 for a blank (a leading digit the console leaves dark). */
const digitOrBlankAt = (frame: Uint8Array, at: number): number | undefined => (frame[at] === blank ? 0 : digitAt(frame, at))

/**
 * Bytes `at`…`at+3`: `MMSS` (minutes may be blank-padded: ` 839` = 8:39) → `MM:SS` as shown,
 * or, when the last byte is blank, `SSt` (under a minute: `066 ` = 6.6 s) → `S.t`.
 */
export const clockAt = (frame: Uint8Array, at: number): string | undefined => {
  const [m1, m2, s1, s2] = [frame[at]!, frame[at + 1]!, frame[at + 2]!, frame[at + 3]!]
  if (s2 === blank) {
    // `SSt `: s1 is the tenths.
    const tenths = digitAt(frame, at + 2)
    const tens = digitOrBlankAt(frame, at)
    const units = digitOrBlankAt(frame, at + 1)
    if (tenths === undefined || tens === undefined || units === undefined || (m1 !== blank && m2 === blank)) return undefined
    return `${tens * 10 + units}.${tenths}`
  }
  const tensOfSeconds = digitAt(frame, at + 2)
  if (digitAt(frame, at + 3) === undefined || tensOfSeconds === undefined || tensOfSeconds > 5) return undefined
  if (digitOrBlankAt(frame, at) === undefined || digitOrBlankAt(frame, at + 1) === undefined || (m1 !== blank && m2 === blank)) return undefined
  const minutes = String.fromCharCode(m1, m2).trim() || "0"
  return `${minutes}:${String.fromCharCode(s1, s2)}`
}

/** One digit per side; both or nothing. */
export const digitPairAt = (frame: Uint8Array, sides: Sides<number>): readonly [number, number] | undefined => {
  const home = digitAt(frame, sides.home)
  const away = digitAt(frame, sides.away)
  return home === undefined || away === undefined ? undefined : [home, away]
}

/** Running slots (0-based) by the flag byte: `1` = 1, `2` = 1+2, `3` = 1+2+3, `4` = 2, `5` = 3, `6` = 2+3, `7` = 1+3; other = none. */
const runningSlots: ReadonlyArray<ReadonlyArray<number>> = [[], [0], [0, 1], [0, 1, 2], [1], [2], [1, 2], [0, 2]]

export const slotsRunning = (flag: number): ReadonlyArray<number> => runningSlots[flag - zero] ?? []

/** `MSS`: `200` = 2:00, ` 45` = 0:45; all blank or not a time → undefined. */
export const penaltyClockAt = (frame: Uint8Array, at: number): string | undefined => {
  const minutes = digitOrBlankAt(frame, at)
  const tens = digitOrBlankAt(frame, at + 1)
  const units = digitAt(frame, at + 2)
  if (minutes === undefined || tens === undefined || units === undefined || tens > 5) return undefined
  if (frame[at] !== blank && frame[at + 1] === blank) return undefined
  return `${minutes}:${tens}${units}`
}

/**
 * The flag byte says which slots run; only those are listed, with the time their
 * clock shows. A slot whose flag is off is not listed even if its clock still shows
 * digits (a console may leave the last value there); a running slot whose clock is
 * blank or unreadable is left out.
 */
export const penaltiesAt = (frame: Uint8Array, base: number, penalties: NonNullable<Layout["penalties"]>) => {
  const side = (flagAt: number, clocks: ReadonlyArray<number>): ReadonlyArray<Penalty> =>
    slotsRunning(frame[base + flagAt]!).flatMap((slot) => {
      const remaining = penaltyClockAt(frame, base + clocks[slot]!)
      return remaining === undefined ? [] : [{ remaining }]
    })
  return { home: side(penalties.running.home, penalties.clocks.home), away: side(penalties.running.away, penalties.clocks.away) }
}

export const isOn = (byte: number | undefined) => byte === on
