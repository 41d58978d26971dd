import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import { clockText, type Step } from "./match.ts"

export interface FloorballBoard {
  /** Running match time of the period, `MM:SS`. */
  readonly clock: string
  readonly home: number
  readonly away: number
  /** 1–3, or the letter a Bodet console shows in extra time. */
  readonly period: 1 | 2 | 3 | "E"
}

const periodSeconds = 20 * 60
const extraTimeSeconds = 10 * 60

/**
 * A floorball match: three 20-minute periods with a goal every 1–7 minutes of
 * play and one or two clock-only updates between goals; in period 2 the
 * operator takes the first goal back (the score goes down); a late equaliser
 * (if needed) takes it to extra time ('E'), decided by a golden goal.
 */
export const floorballMatch = (seed: number): Array<Step<FloorballBoard>> => {
  const random = seededRandom(seed)
  let home = 0
  let away = 0
  let elapsed = 0
  let period: FloorballBoard["period"] = 1
  const steps: Array<Step<FloorballBoard>> = []
  const show = (tick: boolean) => steps.push({ board: { clock: clockText(elapsed), home, away, period }, tick })
  const goal = (): "home" | "away" => {
    const side = random.next() < 0.5 ? "home" : "away"
    if (side === "home") home++
    else away++
    show(false)
    return side
  }

  for (const current of [1, 2, 3, "E"] as const) {
    period = current
    elapsed = 0
    const length = current === "E" ? extraTimeSeconds : periodSeconds
    let corrected = current !== 2
    show(false)
    // Bounded: the clock moves on by at least 60 s per goal.
    while (true) {
      const gap = random.int(60, 420)
      const ticks = random.int(1, 2)
      for (let t = 1; t <= ticks; t++) {
        elapsed = Math.min(length, elapsed + gap / (ticks + 1))
        show(true)
      }
      elapsed += gap / (ticks + 1)
      if (elapsed >= length - 30) break
      const side = goal()
      if (current === "E") break
      if (!corrected) {
        // The operator's correction: the goal just given is taken back.
        elapsed += 15
        if (side === "home") home--
        else away--
        show(false)
        corrected = true
      }
    }
    if (current === 3) {
      // A late equaliser, one goal at a time, so extra time is played.
      while (home !== away) {
        elapsed = Math.min(length, elapsed + 5)
        if (home < away) home++
        else away++
        show(false)
      }
    }
    // The clock runs out, or (extra time) stops at the golden goal and is shown once more.
    if (current !== "E") elapsed = length
    show(true)
  }
  return steps
}

/** The generic entry for a board (without its time): extra time is period 4, after three regular periods. */
export const floorballEntry = (board: FloorballBoard) => ({
  left: board.home,
  right: board.away,
  period: board.period === "E" ? 4 : board.period
})
