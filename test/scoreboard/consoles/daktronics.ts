import { frame } from "../../../adapters/daktronics-rtd/encode.ts"
import type { BasketballBoard } from "../matches/basketball-quarter.ts"
import type { Pair } from "../matches/match.ts"
import type { TennisSetBoard } from "../matches/tennis-set.ts"
import type { VolleyballBoard } from "../matches/volleyball-match.ts"
import type { SimulatedConsole } from "./console.ts"

/** Writes a right-justified value into a field of the RTD buffer; undefined leaves it blank. */
export type Put = (offset: number, length: number, value: string | number | undefined) => void

/** Every field these sports use lies below this offset (tennis away current set: 257–258). */
export const span = 261

/**
 * A Daktronics console as ED-12483 describes it: the first frame dumps the
 * whole buffer, later frames carry only the range that changed (one frame per
 * board, so no half-updated board is ever shown). A board identical to the last
 * re-sends the clock, which changes nothing.
 */
const rtdConsole = <B>(render: Render<B>): SimulatedConsole<B> => {
  let shown: Array<string> | undefined
  return {
    protocol: "daktronics-rtd",
    options: {},
    encode: (board) => {
      const buffer = Array.from({ length: span }, () => " ")
      render(board, (offset, length, value) => {
        const text = (value === undefined ? "" : String(value)).padStart(length, " ")
        if (text.length > length) throw new RangeError(`${text} does not fit in ${length} bytes at ${offset}`)
        for (let i = 0; i < length; i++) buffer[offset + i] = text[i]!
      })
      const before = shown
      shown = buffer
      if (before === undefined) return frame(0, buffer.join(""))
      const first = buffer.findIndex((char, i) => char !== before[i])
      if (first === -1) return frame(0, buffer.slice(0, 5).join(""))
      const last = buffer.findLastIndex((char, i) => char !== before[i])
      return frame(first, buffer.slice(first, last + 1).join(""))
    }
  }
}

const setsWonOf = (finished: ReadonlyArray<Pair>): Pair =>
  [finished.filter(([h, a]) => h > a).length, finished.filter(([h, a]) => a > h).length]

/** Writes a board's fields into an RTD buffer through `put`, in the order the console sends them. */
export type Render<B> = (board: B, put: Put) => void

export const basketballFields: Render<BasketballBoard> = (board, put) => {
  put(0, 5, board.clock)
  put(107, 4, board.home)
  put(111, 4, board.away)
  put(141, 2, board.period)
}

export const daktronicsBasketball = (): SimulatedConsole<BasketballBoard> => rtdConsole(basketballFields)

/** Live points at 107/111 (the default `volleyballPoints: score`), finished games in their slots. */
export const volleyballFields: Render<VolleyballBoard> = (board, put) => {
  const live = board.sets[board.period - 1]!
  put(0, 5, board.clock)
  put(107, 4, live[0])
  put(111, 4, live[1])
  put(141, 2, board.period)
  put(214, 2, board.setsWon[0])
  put(216, 2, board.setsWon[1])
  board.sets.slice(0, board.period - 1).forEach(([h, a], i) => {
    put(221 + 2 * i, 2, h)
    put(241 + 2 * i, 2, a)
  })
}

export const daktronicsVolleyball = (): SimulatedConsole<VolleyballBoard> => rtdConsole(volleyballFields)

/**
 * Game points at 107/111, blanked at 0 as the console does at a new game;
 * plain counts and "TIE BREAK" at 218 in a tie-break; finished sets in the
 * five set slots, the set in play at 243/257.
 */
export const tennisFields: Render<TennisSetBoard> = (board, put) => {
  const finished = board.sets.slice(0, -1)
  const current = board.sets.at(-1)!
  const won = setsWonOf(finished)
  const point = (p: string) => (board.tieBreak || p !== "0" ? p : undefined)
  put(0, 5, board.clock)
  put(107, 4, point(board.points[0]))
  put(111, 4, point(board.points[1]))
  put(141, 2, board.sets.length)
  put(218, 9, board.tieBreak ? "TIE BREAK" : undefined)
  put(231, 2, won[0])
  put(245, 2, won[1])
  finished.forEach(([h, a], i) => {
    put(233 + 2 * i, 2, h)
    put(247 + 2 * i, 2, a)
  })
  put(243, 2, current[0])
  put(257, 2, current[1])
}

export const daktronicsTennis = (): SimulatedConsole<TennisSetBoard> => rtdConsole(tennisFields)
