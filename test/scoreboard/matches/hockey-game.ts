import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import { clockText, type Step } from "./match.ts"

export interface HockeyBoard {
  readonly clock: string
  readonly home: number
  readonly away: number
  /** 1–3, then 4 for overtime. */
  readonly period: number
}

/** A goal, or the operator taking one back (disallowed after review): the score goes down. */
type Event = "home" | "away" | "take back home" | "take back away"

/**
 * Tied after regulation, so it goes to overtime; in the second period the
 * operator puts a home goal up and takes it back.
 */
const script: ReadonlyArray<ReadonlyArray<Event>> = [
  ["home", "away"],
  ["away", "home", "home", "take back home"],
  ["home", "away"],
  ["away"]
]

const regulationSeconds = 1200
const overtimeSeconds = 300

/**
 * A hockey game: three 20-minute periods and a 5-minute sudden-death
 * overtime, events at random clock times (from `seed`) with one to three
 * clock-only updates between them. Each period starts with the clock reset
 * (a period change is a score change: the generic entry carries the period);
 * regulation periods run out to 0:00; overtime ends at its goal.
 */
export const hockeyGame = (seed: number): Array<Step<HockeyBoard>> => {
  const random = seededRandom(seed)
  let home = 0
  let away = 0
  let period = 1
  let remaining = regulationSeconds
  const board = (): HockeyBoard => ({ clock: clockText(remaining), home, away, period })
  const steps: Array<Step<HockeyBoard>> = []
  const tick = (seconds: number) => {
    const ticks = random.int(1, 3)
    for (let t = 1; t <= ticks; t++) {
      remaining = Math.max(0, remaining - Math.ceil(seconds / ticks))
      steps.push({ board: board(), tick: true })
    }
  }
  script.forEach((events, i) => {
    period = i + 1
    remaining = period === 4 ? overtimeSeconds : regulationSeconds
    steps.push({ board: board(), tick: false })
    // Room for every event, at least 20 s apart.
    const share = Math.floor(remaining / (events.length + 1))
    for (const event of events) {
      tick(random.int(20, share))
      if (event === "home") home++
      else if (event === "away") away++
      else if (event === "take back home") home--
      else away--
      steps.push({ board: board(), tick: false })
    }
    if (period < 4) tick(remaining)
  })
  return steps
}

/** The generic entry for a board (without its time). */
export const hockeyEntry = (board: HockeyBoard) => ({ left: board.home, right: board.away, period: board.period })
