import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import { clockText, type Step } from "./match.ts"

export interface BasketballBoard {
  readonly clock: string
  readonly home: number
  readonly away: number
  readonly period: number
}

/**
 * One 10-minute quarter: a basket (1, 2 or 3 points) every 5–25 s of game
 * clock, with one or two clock-only updates between baskets. The last minute
 * is shown in tenths, as consoles do.
 */
export const basketballQuarter = (seed: number, period = 1): Array<Step<BasketballBoard>> => {
  const random = seededRandom(seed)
  let remaining = 600
  let home = 0
  let away = 0
  const board = (): BasketballBoard => ({ clock: clockText(remaining, true), home, away, period })
  const steps: Array<Step<BasketballBoard>> = [{ board: board(), tick: false }]
  // Bounded: the clock runs down by at least 5 s per basket.
  while (remaining > 0) {
    const gap = random.int(50, 250) / 10
    const ticks = random.int(1, 2)
    for (let t = 1; t <= ticks; t++) {
      remaining = Math.max(0, remaining - gap / (ticks + 1))
      steps.push({ board: board(), tick: true })
    }
    remaining = Math.max(0, remaining - gap / (ticks + 1))
    if (remaining === 0) break
    const roll = random.next()
    const points = roll < 0.2 ? 1 : roll < 0.75 ? 2 : 3
    if (random.next() < 0.5) home += points
    else away += points
    steps.push({ board: board(), tick: false })
  }
  steps.push({ board: board(), tick: true })
  return steps
}

/**
 * The generic entry for a board (without its time). `period` is what the
 * protocol can show: 0 stands for "the controller sends none".
 */
export const basketballEntry = (board: BasketballBoard, shows: { readonly period: boolean } = { period: true }) => ({
  left: board.home,
  right: board.away,
  period: shows.period ? board.period : 0
})

/**
 * Four quarters, each cut to its first `stepsPerQuarter` steps, the score
 * running on across them: each quarter starts with the clock reset and the
 * period up by one (an entry, the score unchanged).
 */
export const basketballGame = (seed: number, stepsPerQuarter = 12): Array<Step<BasketballBoard>> => {
  const steps: Array<Step<BasketballBoard>> = []
  let home = 0
  let away = 0
  for (let period = 1; period <= 4; period++) {
    const quarter = basketballQuarter(seed + period, period).slice(0, stepsPerQuarter)
    for (const { board, tick } of quarter) steps.push({ board: { ...board, home: home + board.home, away: away + board.away }, tick })
    const last = steps.at(-1)!.board
    home = last.home
    away = last.away
  }
  return steps
}
