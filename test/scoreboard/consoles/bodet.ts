import { message11, penalties } from "../../../adapters/bodet-scorepad/encode.ts"
import { concat } from "../../../adapters/shared/seeded-random.ts"
import type { FloorballBoard } from "../matches/floorball-match.ts"
import type { SimulatedConsole } from "./console.ts"

/** What a console streams while it shows one board, and where the first message 11 (the one an entry is stamped by) starts. */
export interface Burst {
  readonly bytes: Uint8Array
  readonly scoreAt: number
}

export interface BodetConsole<B> extends SimulatedConsole<B> {
  readonly burst: (board: B) => Burst
}

/**
 * A Scorepad in floorball (sport digit '7', as in the captures): it streams
 * message 11 several times a second among its other messages, so each board
 * goes out as home penalties (12), message 11, guest penalties (13) and
 * message 11 again.
 */
export const bodetFloorball = (): BodetConsole<FloorballBoard> => {
  const burst = (board: FloorballBoard): Burst => {
    const score = message11({ status: 0x82, sportDigit: "7", clock: board.clock, home: board.home, away: board.away, period: board.period })
    // Penalty clocks that change with the board, as real ones do: never a score.
    const seconds = board.clock.slice(-2)
    const home = penalties("12", [{ left: `1:${seconds}`, running: true }, { left: "2:00", running: false }])
    const guest = penalties("13", [{ left: `0:${seconds}`, running: board.home % 2 === 0 }])
    return { bytes: concat(home, score, guest, score), scoreAt: home.length }
  }
  return { protocol: "bodet-scorepad", options: { sportDigit: "7" }, burst, encode: (board) => burst(board).bytes }
}
