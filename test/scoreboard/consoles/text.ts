import { boardLine, boardLineOptions } from "../../../src/demo/tennis-match.ts"
import type { BasketballBoard } from "../matches/basketball-quarter.ts"
import type { TennisSetBoard } from "../matches/tennis-set.ts"
import type { VolleyballBoard } from "../matches/volleyball-match.ts"
import type { SimulatedConsole } from "./console.ts"

/** The demo's tennis line (`<clock> <points> <games per set>`): no tie-break flag, sets won and set number derived. */
export const linesTennis = (): SimulatedConsole<TennisSetBoard> => ({
  protocol: "lines",
  options: boardLineOptions,
  encode: (board) => boardLine(board, board.clock)
})

/** JSON documents as an MQTT payload each, read by configured paths. */
const json = <B>(fields: Readonly<Record<string, string>>, document: (board: B) => unknown): SimulatedConsole<B> => ({
  protocol: "json",
  options: { framing: "message", fields },
  encode: (board) => JSON.stringify(document(board))
})

export const jsonBasketball = (): SimulatedConsole<BasketballBoard> =>
  json(
    { home: "score.home", away: "score.away", period: "quarter", clock: "clock" },
    (board) => ({ clock: board.clock, quarter: board.period, score: { home: board.home, away: board.away } })
  )

/** Finished sets as `{home, away}` objects and the set in play as live points, as many DIY boards send them. */
export const jsonVolleyball = (): SimulatedConsole<VolleyballBoard> =>
  json(
    { home: "points.0", away: "points.1", period: "set", sets: "finished", clock: "clock" },
    (board) => ({
      clock: board.clock,
      set: board.period,
      finished: board.sets.slice(0, board.period - 1).map(([home, away]) => ({ home, away })),
      points: board.sets[board.period - 1]
    })
  )

/** Games as a `6-4 3-2` string; game points as shown, tie-break counts as numbers. */
export const jsonTennis = (): SimulatedConsole<TennisSetBoard> =>
  json(
    { homePoints: "points.0", awayPoints: "points.1", sets: "games", homeSetsWon: "won.home", awaySetsWon: "won.away", period: "set", clock: "clock" },
    (board) => {
      const finished = board.sets.slice(0, -1)
      return {
        clock: board.clock,
        set: board.sets.length,
        won: { home: finished.filter(([h, a]) => h > a).length, away: finished.filter(([h, a]) => a > h).length },
        games: board.sets.map(([h, a]) => `${h}-${a}`).join(" "),
        points: board.tieBreak ? board.points.map(Number) : board.points
      }
    }
  )
