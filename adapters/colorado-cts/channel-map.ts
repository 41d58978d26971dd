/**
 * What the console's swimming program shows on which channel (../shared/protocols/colorado-cts.md
 * §4), as data. Digit positions count 0–7 from the left of the module.
 */

/** A run of digit positions, both ends included. */
export interface DigitSpan {
  readonly first: number
  readonly last: number
}

const span = (first: number, last: number): DigitSpan => ({ first, last })

/** Channel 0: the running (race) clock. d0–1 are never sent; d7 (hundredths) was blank in every recording. */
export const raceClock = {
  channel: 0,
  minutes: span(2, 3),
  seconds: span(4, 5),
  tenths: 6,
  hundredths: 7,
  /** Positions a clock packet may carry (tenths-only packets carry 6–7, whole ones 2–7). */
  shown: span(2, 7)
} as const

/** A lane module: d0 lane number, d1 place, d2–3 minutes, d4–5 seconds, d6–7 hundredths. */
export const laneDigits = {
  lane: 0,
  place: 1,
  minutes: span(2, 3),
  seconds: span(4, 5),
  hundredths: span(6, 7)
} as const

/** Lanes 1–10 on channels 1–10; lanes 11 and 12 on channels 23 and 24 (E, and the recordings). */
export const laneChannels: ReadonlyMap<number, number> = new Map([
  ...Array.from({ length: 10 }, (_, i) => [i + 1, i + 1] as const),
  [23, 11],
  [24, 12]
])

/** Channel 12: event d0–2, heat d5–7, blank-padded. */
export const eventHeat = { channel: 12, event: span(0, 2), heat: span(5, 7) } as const

/** Places shown 1–12; D's README says a disqualified lane shows 13 (unverified): anything else is no place. */
export const places = { first: 1, last: 12 } as const

/**
 * Format-packet flags (value after the XOR, per digit). 4 on every digit of the lane channels while
 * the console's "blank" mode is on (6 and 0xC were seen on single digits then: the 4 is in them too).
 */
export const blankedFlag = 4
