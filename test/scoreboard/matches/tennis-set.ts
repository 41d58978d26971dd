import { seededRandom } from "../../../adapters/shared/seeded-random.ts"
import { type Player, type TennisBoard, TennisMatch } from "../../../src/demo/tennis-match.ts"
import { clockText, type Step } from "./match.ts"

export interface TennisSetBoard extends TennisBoard {
  readonly clock: string
}

/**
 * Who wins each of the first twelve games: a seeded order of six each in which
 * neither side reaches 6 games two ahead, so the set goes to 6–6.
 */
const gameWinners = (random: ReturnType<typeof seededRandom>): Array<Player> => {
  const alternating: Array<Player> = Array.from({ length: 12 }, (_, i) => (i % 2) as Player)
  for (let attempt = 0; attempt < 100; attempt++) {
    const order = [...alternating]
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i)
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    const games = [0, 0]
    const reachesSix = order.some((p) => ++games[p]! === 6 && games[1 - p]! <= 4)
    if (!reachesSix) return order
  }
  return alternating
}

/**
 * One tennis set, 6–6 and a tie-break that home wins 7–x, played point by
 * point on the demo's `TennisMatch` (so boards show 0/15/30/40/AD, plain counts
 * in the tie-break, and a won game as 0–0 with the games moved on). Each game's
 * chosen winner takes about 65% of its points; a point that would hand the game
 * to the other side goes to the winner, and long deuces are cut short. Every
 * point is followed by a clock-only update. The last board is the next set at 0–0.
 */
export const tennisSet = (seed: number): Array<Step<TennisSetBoard>> => {
  const random = seededRandom(seed)
  const match = new TennisMatch()
  let seconds = 0
  const board = (): TennisSetBoard => ({ ...match.board, clock: clockText(seconds) })
  const steps: Array<Step<TennisSetBoard>> = [{ board: board(), tick: false }]
  const playGame = (winner: Player, needed: number) => {
    const points = [0, 0]
    const over = () => Math.max(points[0]!, points[1]!) >= needed && Math.abs(points[0]! - points[1]!) >= 2
    while (!over()) {
      const loser = (1 - winner) as Player
      const wouldWin = points[loser]! + 1 >= needed && points[loser]! + 1 - points[winner]! >= 2
      const longDeuce = points[0]! + points[1]! >= 2 * needed + 2
      const scorer = wouldWin || longDeuce || random.next() < 0.65 ? winner : loser
      points[scorer]!++
      match.play(scorer)
      seconds += random.int(20, 50)
      steps.push({ board: board(), tick: false })
      seconds += 10
      steps.push({ board: board(), tick: true })
    }
  }
  for (const winner of gameWinners(random)) playGame(winner, 4)
  playGame(0, 7)
  return steps
}

const servicePoint: Readonly<Record<string, number>> = { "0": 0, "15": 1, "30": 2, "40": 3, "AD": 4 }

/** The service's tennis entry for a board (without its time): sets won and set number, games per set, points 0–4 or tie-break counts. */
export const tennisEntry = (board: TennisBoard) => {
  const finished = board.sets.slice(0, -1)
  return {
    left: finished.filter(([h, a]) => h > a).length,
    right: finished.filter(([h, a]) => a > h).length,
    period: board.sets.length,
    scoreValue: {
      gameScores: board.sets.map(([h, a]) => [h, a]),
      pointScore: board.points.map((p) => (board.tieBreak ? Number(p) : servicePoint[p]!))
    }
  }
}
