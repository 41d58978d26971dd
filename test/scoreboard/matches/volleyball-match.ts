import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import { clockText, type Pair, type Step } from "./match.ts"

export interface VolleyballBoard {
  readonly clock: string
  /** Current set, 1-based. */
  readonly period: number
  /** Every set so far, the one in play last. */
  readonly sets: ReadonlyArray<Pair>
  readonly setsWon: Pair
}

/** Who wins each set: 2–2, then home takes the fifth. */
const setWinners = [0, 1, 0, 1, 0] as const

/**
 * A five-set match: sets to 25, the fifth to 15, each won by 2. The set's
 * winner takes about 60% of its points; a point that would hand the set to the
 * other side goes to the winner instead, and long deuces are cut short, so
 * every set ends. After a set point the board shows the final tally, then
 * moves to the next set at 0–0. A clock-only update follows every fourth point.
 */
export const volleyballMatch = (seed: number): Array<Step<VolleyballBoard>> => {
  const random = seededRandom(seed)
  let seconds = 0
  const sets: Array<[number, number]> = [[0, 0]]
  const won: [number, number] = [0, 0]
  const board = (): VolleyballBoard => ({
    clock: clockText(seconds),
    period: sets.length,
    sets: sets.map(([h, a]) => [h, a] as const),
    setsWon: [won[0], won[1]]
  })
  const steps: Array<Step<VolleyballBoard>> = [{ board: board(), tick: false }]
  let points = 0
  setWinners.forEach((winner, index) => {
    const target = index === 4 ? 15 : 25
    const set = sets[index]!
    const loser = (1 - winner) as 0 | 1
    const over = () => Math.max(set[0], set[1]) >= target && Math.abs(set[0] - set[1]) >= 2
    while (!over()) {
      const wouldWin = set[loser] + 1 >= target && set[loser] + 1 - set[winner] >= 2
      const longDeuce = set[0] + set[1] >= 2 * target + 4
      const scorer = wouldWin || longDeuce || random.next() < 0.6 ? winner : loser
      set[scorer]++
      seconds += random.int(15, 40)
      steps.push({ board: board(), tick: false })
      if (++points % 4 === 0) {
        seconds += 5
        steps.push({ board: board(), tick: true })
      }
    }
    won[winner]++
    if (index < setWinners.length - 1) {
      sets.push([0, 0])
      seconds += 180
      steps.push({ board: board(), tick: false })
    }
  })
  return steps
}

/** The service's volleyball entry for a board (without its time): points per set, the one in play included. */
export const volleyballEntry = (board: VolleyballBoard) => ({
  scoreValue: { gameScores: board.sets.map(([h, a]) => [h, a]) }
})
