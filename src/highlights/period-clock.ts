/**
 * The end of a period on a board whose clock counts down: the clock reaching zero while running
 * down. A clock that counts up is reset to zero while going up (or from far away, 45:00 → 0:00),
 * so it does not end a period here; those boards end one when the period number goes up.
 */

/** Seconds shown by a board clock: "12:34", "1:02:03", "45.6", "0", with blanks trimmed; undefined if it is no clock. */
export const clockSeconds = (clock: string): number | undefined => {
  const text = clock.trim()
  const match = /^(?:(\d{1,2}):)?(?:(\d{1,2}):)?(\d{1,2})(?:[.,](\d))?$/u.exec(text)
  if (match === null) return undefined
  const [, first, second, seconds, tenths] = match
  const hours = second === undefined ? 0 : Number(first)
  const minutes = second === undefined ? Number(first ?? 0) : Number(second)
  return hours * 3600 + minutes * 60 + Number(seconds) + (tenths === undefined ? 0 : Number(tenths) / 10)
}

/** A countdown seen this close to zero before it shows zero has run out; a count-up clock is reset from further away. */
const lastMinute = 60

/** Follows one place's clock; `zeroReached` says when a countdown has just ended. */
export class PeriodClock {
  private last: number | undefined
  private beforeLast: number | undefined

  /**
   * Whether this clock reading ends a countdown: zero, after a value within the last minute that
   * was itself going down. A board sending a few readings a second shows 0.1 then 0.0; a slower
   * one may jump from 0:04, still a countdown. A count-up clock reset to zero was going up.
   */
  zeroReached(clock: string | undefined): boolean {
    if (clock === undefined) return false
    const seconds = clockSeconds(clock)
    if (seconds === undefined || seconds === this.last) return false
    const [last, beforeLast] = [this.last, this.beforeLast]
    this.beforeLast = last
    this.last = seconds
    return seconds === 0 && last !== undefined && last > 0 && last <= lastMinute && beforeLast !== undefined && beforeLast > last
  }
}
