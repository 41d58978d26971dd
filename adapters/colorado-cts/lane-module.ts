import type { LaneBoard } from "../../src/domain/race.ts"
import { laneDigits, places } from "./channel-map.ts"
import { type ModuleContent, isDark } from "./modules.ts"

/** A time as the lane shows it. */
interface LaneTime {
  readonly time: string
  readonly timeMs: number
}

const digitAt = (digits: ArrayLike<number>, position: number): number | undefined => (isDark(digits[position]) ? undefined : digits[position])

const isDigit = (d: number | undefined, max = 9): d is number => d !== undefined && d <= max

/**
 * d2–3 minutes (blank-padded, may be blank), d4–5 seconds, d6–7 hundredths: "28.91", "1:02.34".
 * Undefined when the digits are not such a time (a blank inside it, a value over 9, seconds over 59).
 */
const laneTime = (digits: ArrayLike<number>): LaneTime | undefined => {
  const [m1, m2, s1, s2, h1, h2] = Array.from({ length: 6 }, (_, i) => digitAt(digits, laneDigits.minutes.first + i))
  if (!isDigit(s2) || !isDigit(h1) || !isDigit(h2)) return undefined
  if (m1 !== undefined && (!isDigit(m1) || m2 === undefined)) return undefined
  if (m2 !== undefined && (!isDigit(m2) || s1 === undefined)) return undefined
  if (s1 !== undefined && !isDigit(s1, 5)) return undefined
  const minutes = (m1 ?? 0) * 10 + (m2 ?? 0)
  const seconds = (s1 ?? 0) * 10 + s2
  const time = m2 === undefined ? `${s1 ?? ""}${s2}.${h1}${h2}` : `${m1 ?? ""}${m2}:${s1}${s2}.${h1}${h2}`
  return { time, timeMs: (minutes * 60 + seconds) * 1000 + (h1 * 10 + h2) * 10 }
}

const timeIsDark = (digits: ArrayLike<number>): boolean => {
  for (let position = laneDigits.minutes.first; position <= laneDigits.hundredths.last; position++) if (!isDark(digits[position])) return false
  return true
}

/**
 * Whether the lane digit names this lane. Lanes 10–12 have one digit for two: W's table sends 10 for
 * lane 10 (a value past 9), another console may send 0; both are taken, as 11/1 and 12/2.
 */
const namesLane = (digit: number, lane: number): boolean => digit === lane || digit === lane % 10

/**
 * Why a lane channel's digit packet cannot be what the console sent, or undefined: the lane digit
 * names another lane, or a stopped lane shows a place of 0, an all-zero time, a place without a
 * time, or digits that are not a time. Arbitrary bytes decode into lanes, places and times (there is
 * no checksum); the console was never seen sending any of these (../shared/protocols/colorado-cts.md §3).
 */
export const lanePacketProblem = (content: { readonly running: boolean; readonly digits: ArrayLike<number> }, lane: number): string | undefined => {
  const { digits } = content
  const laneDigit = digitAt(digits, laneDigits.lane)
  if (laneDigit !== undefined && !namesLane(laneDigit, lane)) return `lane digit ${laneDigit} on lane ${lane}'s channel`
  // A running module's place is stale and its time digits are not sent: nothing more to check.
  if (content.running) return undefined
  const place = digitAt(digits, laneDigits.place)
  if (timeIsDark(digits)) return place === undefined ? undefined : `place ${place} without a time`
  const time = laneTime(digits)
  if (time === undefined) return "digits that are not a time"
  if (time.timeMs === 0) return "an all-zero time"
  if (place === 0) return "place 0"
  return undefined
}

/** A place the board shows, or undefined: blank, 13 (D: disqualified, unverified) and 14 are no place. */
const placeOf = (digits: ArrayLike<number>): number | undefined => {
  const place = digitAt(digits, laneDigits.place)
  return place !== undefined && place >= places.first && place <= places.last ? place : undefined
}

/** A lane as its confirmed module shows it; `blanked`: the console's blank mode, whatever the digits. */
export const laneBoardOf = (lane: number, content: ModuleContent, blanked: boolean): LaneBoard => {
  if (blanked) return { lane, state: "blank" }
  if (content.running) return { lane, state: "running" }
  const time = timeIsDark(content.digits) ? undefined : laneTime(content.digits)
  if (time === undefined) return { lane, state: "blank" }
  const place = placeOf(content.digits)
  return { lane, state: "stopped", ...(place === undefined ? {} : { place }), ...time }
}
