import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import type { Penalty } from "../../../src/domain/reading.ts"
import { clockText, type Step } from "./match.ts"

export interface HockeyBoard {
  readonly clock: string
  readonly home: number
  readonly away: number
  /** 1–3, then 4 for overtime. */
  readonly period: number
  /** Running penalties as the board shows them beside the score (at most two a team); never part of an entry. */
  readonly penalties?: { readonly home: ReadonlyArray<Penalty>; readonly away: ReadonlyArray<Penalty> }
}

/**
 * A goal, the operator taking one back (disallowed after review: the score
 * goes down), or a penalty of so many minutes, which counts down with the clock.
 */
type Event = "home" | "away" | "take back home" | "take back away" | `penalty ${"home" | "away"} ${2 | 5}`

/**
 * Tied after regulation, so it goes to overtime; in the second period the
 * operator puts a home goal up and takes it back. Penalties run in every
 * regulation period, the guest's with minutes 1–5 on the board.
 */
const script: ReadonlyArray<ReadonlyArray<Event>> = [
  ["home", "penalty away 2", "away"],
  ["penalty away 5", "away", "home", "penalty home 2", "home", "take back home"],
  ["home", "penalty away 2", "penalty home 5", "away"],
  ["away"]
]

const regulationSeconds = 1200
const overtimeSeconds = 300

/**
 * A hockey game: three 20-minute periods and a 5-minute sudden-death
 * overtime, events at random clock times (from `seed`) with one to three
 * clock-only updates between them. Each period starts with the clock reset
 * (a period change is a score change: the generic entry carries the period);
 * regulation periods run out to 0:00; overtime ends at its goal. A penalty is
 * a step that makes no entry, and its time counts down with the game clock
 * (carried into the next period if it has not run out).
 */
export const hockeyGame = (seed: number): Array<Step<HockeyBoard>> => {
  const random = seededRandom(seed)
  let home = 0
  let away = 0
  let period = 1
  let remaining = regulationSeconds
  let penalties: Array<{ readonly side: "home" | "away"; readonly player: number; left: number }> = []
  const shownPenalties = (side: "home" | "away") =>
    penalties.filter((p) => p.side === side).map((p) => ({ player: p.player, remaining: `${Math.floor(p.left / 60)}:${String(p.left % 60).padStart(2, "0")}` }))
  const board = (): HockeyBoard => ({ clock: clockText(remaining), home, away, period, penalties: { home: shownPenalties("home"), away: shownPenalties("away") } })
  const steps: Array<Step<HockeyBoard>> = []
  const tick = (seconds: number) => {
    const ticks = random.int(1, 3)
    for (let t = 1; t <= ticks; t++) {
      const before = remaining
      remaining = Math.max(0, remaining - Math.ceil(seconds / ticks))
      for (const p of penalties) p.left -= before - remaining
      penalties = penalties.filter((p) => p.left > 0)
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
      const penalty = /^penalty (home|away) (\d)$/u.exec(event)
      if (penalty !== null) {
        const side = penalty[1] as "home" | "away"
        // Two slots a team on the board.
        if (penalties.filter((p) => p.side === side).length === 2) penalties.splice(penalties.findIndex((p) => p.side === side), 1)
        penalties.push({ side, player: random.int(2, 98), left: Number(penalty[2]) * 60 })
        steps.push({ board: board(), tick: true })
        continue
      }
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
