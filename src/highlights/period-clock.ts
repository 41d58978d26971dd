/**
 * The end of a period on a board whose clock counts down: the clock reaching zero from its last
 * second. A clock that counts up is reset to zero from far away (45:00 → 0:00), never from a
 * second, so it does not end a period here; those boards end one when the period number goes up.
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

/** Last second before zero: a countdown's final step, wide enough for a board that skips a frame. */
const finalStepSeconds = 2

/** Follows one place's clock; `zeroReached` says when a countdown has just ended. */
export class PeriodClock {
  private last: number | undefined

  /** Whether this clock reading ends a countdown (the previous reading was within its last seconds). */
  zeroReached(clock: string | undefined): boolean {
    if (clock === undefined) return false
    const seconds = clockSeconds(clock)
    if (seconds === undefined) return false
    const before = this.last
    this.last = seconds
    return seconds === 0 && before !== undefined && before > 0 && before <= finalStepSeconds
  }
}
