import { raceClock } from "./channel-map.ts"
import { absent, blank, clockAddress, moduleDigits, type Packet } from "./framing.ts"

/** The running clock as the board shows it. */
export interface ClockFace {
  /** "1:02.3", "28.9", "0.0", ".0" (the start's first tenth); absent while the module is blank. */
  readonly text?: string
  readonly ms?: number
  /** "0.0": before the start, or after the operator reset the clock (".0" at the horn is not). */
  readonly reset: boolean
}

/** The highest value each position of the clock may show: seconds' tens up to 5. */
const highest: ReadonlyArray<number> = [-1, -1, 9, 9, 5, 9, 9, 9]

const isDigit = (d: number, max = 9) => d >= 0 && d <= max

/**
 * Channel 0. It changes every tenth, so repetition cannot confirm it: instead each packet must read
 * as a clock (digits where the layout has them, seconds under 60), or none of it is taken. Packets
 * carry some positions only (tenths between whole seconds): the module keeps the others, as the
 * board does.
 */
export class RaceClockModule {
  readonly #digits = new Int8Array(moduleDigits).fill(absent)

  /** Takes a channel-0 packet; false (nothing applied) when it cannot be the clock. */
  apply(packet: Packet): boolean {
    if (packet.address !== clockAddress) return false
    for (let position = 0; position < moduleDigits; position++) {
      const d = packet.digits[position]!
      if (d !== absent && d !== blank && !isDigit(d, highest[position])) return false
    }
    for (let position = 0; position < moduleDigits; position++) {
      if (packet.digits[position] !== absent) this.#digits[position] = packet.digits[position]!
    }
    return true
  }

  /** The face, once every position of the clock has been sent; undefined before. */
  face(): ClockFace | undefined {
    const { first, last } = raceClock.shown
    for (let position = first; position <= last; position++) if (this.#digits[position] === absent) return undefined
    return clockFace(this.#digits)
  }

  /** The digits as shown (blank where not sent yet), for a field read from channel 0. */
  get digits(): ReadonlyArray<number> {
    return Array.from(this.#digits)
  }
}

const shown = (d: number) => (d === blank || d === absent ? "" : String(d))
const valueOf = (d: number) => (d === blank || d === absent ? 0 : d)

/** The clock's digits d2–d7 as text and ms: minutes and a colon only when shown, tenths and hundredths after a point. */
export const clockFace = (digits: ArrayLike<number>): ClockFace => {
  const [m1, m2, s1, s2, t, h] = Array.from({ length: 6 }, (_, i) => digits[raceClock.minutes.first + i]!)
  const minutes = `${shown(m1!)}${shown(m2!)}`
  const seconds = minutes === "" ? `${shown(s1!)}${shown(s2!)}` : `${valueOf(s1!)}${valueOf(s2!)}`
  const fraction = `${shown(t!)}${shown(h!)}`
  const text = `${minutes === "" ? "" : `${minutes}:`}${seconds}${fraction === "" ? "" : `.${fraction}`}`
  const reset = minutes === "" && s1 === blank && s2 === 0 && t === 0 && (h === blank || h === 0)
  if (text === "") return { reset }
  const ms = (valueOf(m1!) * 10 + valueOf(m2!)) * 60_000 + (valueOf(s1!) * 10 + valueOf(s2!)) * 1000 + valueOf(t!) * 100 + valueOf(h!) * 10
  return { text, ms, reset }
}
