import { frame } from "../../../adapters/stramatel-452m/encode.ts"
import type { GamePoint } from "../../../src/domain/reading.ts"
import type { BasketballBoard } from "../matches/basketball-quarter.ts"
import type { TennisSetBoard } from "../matches/tennis-set.ts"
import type { VolleyballBoard } from "../matches/volleyball-match.ts"
import type { SimulatedConsole } from "./console.ts"

/** A 452 M console sends its whole state in every frame (default sport codes). */
const stramatel = <B>(encode: (board: B) => Uint8Array): SimulatedConsole<B> => ({ protocol: "stramatel-452m", options: {}, encode })

/** The basketball frame has no period field: entries carry period 0 ("not sent"). */
export const stramatelBasketball = (): SimulatedConsole<BasketballBoard> =>
  stramatel((board) => frame(0x33, { home: board.home, away: board.away, clock: board.clock }))

export const stramatelVolleyball = (): SimulatedConsole<VolleyballBoard> =>
  stramatel((board) => {
    const live = board.sets[board.period - 1]!
    return frame(0x36, { home: live[0], away: live[1], period: board.period, setsWon: board.setsWon, sets: board.sets, clock: board.clock })
  })

/** No clock in the tennis frame: a clock-only board is a plain repeat, as the console sends every ~100 ms. */
export const stramatelTennis = (): SimulatedConsole<TennisSetBoard> =>
  stramatel((board) => {
    const finished = board.sets.slice(0, -1)
    const points = board.points.map((p) => (board.tieBreak ? Number(p) : p as GamePoint)) as [GamePoint, GamePoint]
    return frame(0x39, {
      gamePoints: points,
      tieBreak: board.tieBreak,
      period: board.sets.length,
      setsWon: [finished.filter(([h, a]) => h > a).length, finished.filter(([h, a]) => a > h).length],
      sets: board.sets
    })
  })
