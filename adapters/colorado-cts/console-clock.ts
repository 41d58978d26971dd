import { type DigitValue, digitPacket } from "./encode.ts"

/**
 * Channel 0, the running clock (../shared/protocols/colorado-cts.md §4): `0.0` in the reset state,
 * `.0` at the horn, then counting in tenths (d2–3 minutes, d4–5 seconds, d6 tenths, d7 blank) until
 * the operator resets it. The console sends it on every tick (≈ 87 bytes, a tenth at 9600 baud):
 * six digits (2 up to 7) when the minutes or seconds changed and at least once a second, the
 * tenths alone (6, 7) otherwise (R, H2).
 */

/** One race's clock: running from the horn until the reset (stream ms). */
export interface ClockSpan {
  readonly hornMs: number
  readonly resetMs: number
}

const resetDigits: ReadonlyArray<DigitValue> = [null, null, null, null, null, 0, 0, null]

/** The clock's eight digits at stream time `atMs`. */
export const clockDigitsAt = (atMs: number, spans: ReadonlyArray<ClockSpan>): ReadonlyArray<DigitValue> => {
  const span = spans.findLast((s) => s.hornMs <= atMs + 1e-6)
  if (span === undefined || atMs >= span.resetMs) return resetDigits
  const tenths = Math.floor((atMs - span.hornMs) / 100 + 1e-6)
  const minutes = Math.floor(tenths / 600) % 100
  const seconds = Math.floor(tenths / 10) % 60
  const secondDigits = minutes > 0
    ? [Math.floor(seconds / 10), seconds % 10]
    : [seconds >= 10 ? Math.floor(seconds / 10) : null, seconds > 0 ? seconds % 10 : null]
  const minuteDigits = minutes === 0 ? [null, null] : [minutes >= 10 ? Math.floor(minutes / 10) : null, minutes % 10]
  return [null, null, ...minuteDigits, ...secondDigits, tenths % 10, null]
}

/** Remembers what the last full packet showed, to send the tenths alone in between. */
export const clockSender = (spans: ReadonlyArray<ClockSpan>) => {
  let lastFullAt = Number.NEGATIVE_INFINITY
  let lastHigh = ""
  /** The ch0 packet for the tick at `tickMs`. */
  return (tickMs: number): Array<number> => {
    const digits = clockDigitsAt(tickMs, spans)
    const high = digits.slice(2, 6).join(",")
    if (high !== lastHigh || tickMs - lastFullAt >= 1000 - 1e-6) {
      lastHigh = high
      lastFullAt = tickMs
      return digitPacket(0, digits.slice(2), { positions: [2, 3, 4, 5, 6, 7] })
    }
    return digitPacket(0, digits.slice(6), { positions: [6, 7] })
  }
}
