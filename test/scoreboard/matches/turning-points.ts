import { type Player, TennisMatch } from "../../../src/demo/tennis-match.ts"
import type { BasketballBoard } from "./basketball-quarter.ts"
import { clockText, type Step } from "./match.ts"
import type { TennisSetBoard } from "./tennis-set.ts"
import { type VolleyballBoard, volleyballMatch } from "./volleyball-match.ts"

/**
 * Short scenes around the moments where one real change moves several fields
 * of a console at once: the console first shows the scene's opening board (a
 * full dump), then each later step. Each step is followed by a clock-only one.
 */

const home: Player = 0
const away: Player = 1

/** `before` points played unseen, then the board and one step per point of `shown` (each with a clock tick after it). */
const tennisScene = (before: ReadonlyArray<Player>, shown: ReadonlyArray<Player>): Array<Step<TennisSetBoard>> => {
  const match = new TennisMatch()
  for (const point of before) match.play(point)
  let seconds = 1800
  const board = (): TennisSetBoard => ({ ...match.board, clock: clockText(seconds) })
  const steps: Array<Step<TennisSetBoard>> = [{ board: board(), tick: false }]
  for (const point of shown) {
    match.play(point)
    seconds += 30
    steps.push({ board: board(), tick: false })
    seconds += 5
    steps.push({ board: board(), tick: true })
  }
  return steps
}

const game = (winner: Player): Array<Player> => [winner, winner, winner, winner]
const games = (...winners: ReadonlyArray<Player>) => winners.flatMap(game)

/** 30–0 → 40–0 → game (points back to blank, games 0–0 → 1–0) → 15–0 of the next game. */
export const tennisGameWon = () => tennisScene([home, home], [home, home, home])

/** 5–4, 40–15 → set 6–4 (points blank, set 1 moves to its slot, sets won 1–0, set 2 at 0–0) → 0–15 in set 2. */
export const tennisSetWon = () =>
  tennisScene([...games(home, away, home, away, home, away, home, away, home), home, home, away, home], [home, away])

/** 6–6, tie-break 6–5 → set 7–6 (tie-break off, set 1 to its slot, sets won 1–0, set 2 at 0–0) → 15–0 in set 2. */
export const tennisTieBreakWon = () =>
  tennisScene(
    [...games(home, away, home, away, home, away, home, away, home, away, home, away), home, away, home, away, home, away, home, away, home, away, home],
    [home, home]
  )

/** Two points before the end of the first set, the set won, the second set's first points. */
export const volleyballSetWonAndNextSet = (): Array<Step<VolleyballBoard>> => {
  const match = volleyballMatch(21)
  const nextSet = match.findIndex((step) => step.board.period === 2)
  return match.slice(nextSet - 3, nextSet + 3)
}

/** A basket at the buzzer, the next quarter (period 1 → 2, clock back to 10:00), its first basket. */
export const basketballPeriodChange = (): Array<Step<BasketballBoard>> => {
  const at = (clock: string, homeScore: number, awayScore: number, period: number, tick = false): Step<BasketballBoard> => ({
    board: { clock, home: homeScore, away: awayScore, period },
    tick
  })
  return [
    at("3.2", 20, 18, 1),
    at("0.0", 22, 18, 1),
    at("0.0", 22, 18, 1, true),
    at("10:00", 22, 18, 2),
    at("9:41", 22, 18, 2, true),
    at("9:12", 22, 21, 2)
  ]
}

/** Three points given by mistake and taken back by the operator: the score goes down, a real change of its own. */
export const basketballCorrection = (): Array<Step<BasketballBoard>> => [
  { board: { clock: "6:20", home: 40, away: 38, period: 3 }, tick: false },
  { board: { clock: "6:02", home: 43, away: 38, period: 3 }, tick: false },
  { board: { clock: "6:02", home: 40, away: 38, period: 3 }, tick: false },
  { board: { clock: "5:48", home: 40, away: 40, period: 3 }, tick: false }
]
