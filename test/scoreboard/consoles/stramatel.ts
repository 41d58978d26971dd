import { frame } from "../../../adapters/stramatel-452m/encode.ts"
import { concat, type seededRandom } from "../../../adapters/shared/seeded-random.ts"
import type { GamePoint } from "../../../src/domain/reading.ts"
import type { BasketballBoard } from "../matches/basketball-quarter.ts"
import type { HockeyBoard } from "../matches/hockey-game.ts"
import type { TennisSetBoard } from "../matches/tennis-set.ts"
import type { VolleyballBoard } from "../matches/volleyball-match.ts"
import type { SimulatedConsole } from "./console.ts"

/** A 452 M console sends its whole state in every frame (default sport codes). */
const stramatel = <B>(encode: (board: B) => Uint8Array): SimulatedConsole<B> => ({ protocol: "stramatel-452m", options: {}, encode })

/** Basketball frame (0x33): points, period, clock. */
export const stramatelBasketball = (): SimulatedConsole<BasketballBoard> =>
  stramatel((board) => frame(0x33, { home: board.home, away: board.away, period: board.period, clock: board.clock }))

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

type Random = ReturnType<typeof seededRandom>

/**
 * A console on its RS-485 bus: the main frame with the whole state about every
 * 100 ms, and between two of them the bus's other traffic. What is shown beside
 * the score (penalty clocks, shot clock, fouls) moves on with every send, so a
 * board repeated several times is sent as different frames with the same score.
 */
export interface BusConsole<B> extends SimulatedConsole<B> {
  /** The main frame for `board` at the console's `send`-th send since it started. */
  readonly mainFrame: (board: B, send: number) => Uint8Array
}

/** Another frame on the bus (`code`), digits where a main frame has its score, so one read by mistake would show. */
const busFrame = (code: number, digits: string): Uint8Array => {
  const bytes = frame(0x33, {})
  bytes[1] = code
  for (let i = 0; i < digits.length; i++) bytes[4 + i] = digits.charCodeAt(i)
  return bytes
}

/**
 * What shares the bus between two main frames: individual points (0x38 home,
 * 0x37 away), team names (0x77), bytes of other desks' traffic (never 0xF8), or
 * nothing.
 */
export const busChatter = (random: Random): Uint8Array => {
  const parts: Array<Uint8Array> = []
  const roll = random.next()
  if (roll < 0.3) parts.push(busFrame(0x38, String(random.int(10 ** 11, 10 ** 12 - 1)).repeat(4).slice(0, 44)))
  else if (roll < 0.5) parts.push(busFrame(0x37, String(random.int(10 ** 11, 10 ** 12 - 1)).repeat(4).slice(0, 44)))
  else if (roll < 0.6) parts.push(busFrame(0x77, "\x00H\x00O\x00M\x00E\x00 \x00T\x00E\x00A\x00M"))
  if (random.next() < 0.5) parts.push(random.bytes(random.int(1, 30)).map((b) => (b === 0xf8 ? 0x00 : b)))
  return concat(...parts)
}

/** `seconds` as the `M:SS` a penalty clock shows. */
const penaltyTime = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`

/**
 * A hockey (or handball) console on code 0x35: the board's penalties in slots
 * 1 and 2, and a third slot's clock running down with every send (so repeats of
 * one board differ), flags as the code table gives them; now and then a stopped
 * slot 2 still showing digits, its flag off; time-outs.
 */
export const stramatelHockeyBus = (): BusConsole<HockeyBoard> => {
  const mainFrame = (board: HockeyBoard, send: number) => {
    const ticker = penaltyTime(120 - (send % 120))
    const shown = (side: "home" | "away") => board.penalties?.[side].slice(0, 2).map((p) => p.remaining) ?? []
    const home = [...shown("home"), undefined, undefined].slice(0, 2).concat(send % 3 === 0 ? ticker : undefined)
    const away = [...shown("away"), undefined, undefined].slice(0, 2).concat(send % 4 === 1 ? ticker : undefined)
    const bytes = frame(0x35, { home: board.home, away: board.away, period: board.period, clock: board.clock, timeouts: [send % 2, 1], penalties: { home, away } })
    // Home slot 2 (bytes 25–27) stopped but still showing its last time: only the flag says it does not run.
    if (home[1] === undefined && send % 5 === 0) bytes.set([0x30, 0x35, 0x39], 25)
    return bytes
  }
  return { protocol: "stramatel-452m", options: {}, mainFrame, encode: (board) => mainFrame(board, 0) }
}

/** A basketball console on code 0x33: a shot clock that counts down every send, tenths as a letter under 5 s; fouls and time-outs. */
export const stramatelBasketballBus = (): BusConsole<BasketballBoard> => {
  const mainFrame = (board: BasketballBoard, send: number) => {
    const tenths = 240 - (send * 7) % 240
    const shotClock = tenths >= 50 ? String(Math.floor(tenths / 10)).padStart(2, " ") : `${Math.floor(tenths / 10)}${String.fromCharCode(0x40 + (tenths % 10))}`
    return frame(0x33, {
      home: board.home,
      away: board.away,
      period: board.period,
      clock: board.clock,
      teamFouls: [send % 6, (send + 3) % 6],
      timeouts: [send % 3, 2],
      shotClock
    })
  }
  return { protocol: "stramatel-452m", options: {}, mainFrame, encode: (board) => mainFrame(board, 0) }
}
