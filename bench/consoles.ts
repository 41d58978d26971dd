import { frame as rtdFrame } from "../adapters/daktronics-rtd/encode.ts"
import { frame as stramatelFrame } from "../adapters/stramatel-452m/encode.ts"
import { ascii } from "../scripts/support/bytes.ts"

/** What a basketball console shows: the bench only ever moves the home score and the clock. */
export interface Board {
  readonly home: number
  readonly away: number
  readonly period: number
  /** `MM:SS`. */
  readonly clock: string
}

export type ProtocolName = "daktronics-rtd" | "stramatel-452m" | "lines" | "json"

/**
 * A simulated basketball console: the protocol options a place is configured with and the
 * bytes it sends. `change` is a frame showing a new score; `tick` a frame in which only the
 * clock moved (what consoles send several times a second, and what must not become an entry).
 */
export interface BenchConsole {
  readonly protocol: ProtocolName
  readonly options: Readonly<Record<string, unknown>>
  readonly change: (board: Board) => Uint8Array
  readonly tick: (board: Board) => Uint8Array
}

/** RTD buffer offsets of the common fields (see adapters/daktronics-rtd/README.md). */
const rtdSpan = 143
const rtdBuffer = (board: Board): string => {
  const buffer = Array.from({ length: rtdSpan }, () => " ")
  const put = (offset: number, length: number, value: string | number) => {
    const text = String(value).padStart(length, " ")
    for (let i = 0; i < length; i++) buffer[offset + i] = text[i]!
  }
  put(0, 5, board.clock)
  put(107, 4, board.home)
  put(111, 4, board.away)
  put(141, 2, board.period)
  return buffer.join("")
}

/** A score change re-sends the whole range (a console's dump); a tick only the 5-byte clock field. */
const daktronics: BenchConsole = {
  protocol: "daktronics-rtd",
  options: {},
  change: (board) => rtdFrame(0, rtdBuffer(board)),
  tick: (board) => rtdFrame(0, board.clock.padStart(5, " "))
}

/** The 452 M sends its whole state in every frame; 0x33 is basketball (no period field). */
const stramatel: BenchConsole = {
  protocol: "stramatel-452m",
  options: {},
  change: (board) => stramatelFrame(0x33, { home: board.home, away: board.away, clock: board.clock }),
  tick: (board) => stramatelFrame(0x33, { home: board.home, away: board.away, clock: board.clock })
}

const lineOf = (board: Board) => ascii(`${board.clock} ${board.home}-${board.away} ${board.period}\n`)
const lines: BenchConsole = {
  protocol: "lines",
  options: { pattern: "^(?<clock>\\d\\d:\\d\\d) (?<home>\\d+)-(?<away>\\d+) (?<period>\\d+)$" },
  change: lineOf,
  tick: lineOf
}

const documentOf = (board: Board) =>
  ascii(`${JSON.stringify({ clock: board.clock, period: board.period, score: { home: board.home, away: board.away } })}\n`)
const json: BenchConsole = {
  protocol: "json",
  options: { framing: "lines", fields: { home: "score.home", away: "score.away", period: "period", clock: "clock" } },
  change: documentOf,
  tick: documentOf
}

export const consoles: Readonly<Record<ProtocolName, BenchConsole>> = {
  "daktronics-rtd": daktronics,
  "stramatel-452m": stramatel,
  lines,
  json
}

/** A game clock counting down from 10:00, one second per call of `at(n)`. */
export const clockAt = (n: number): string => {
  const left = 600 - (n % 600)
  return `${String(Math.floor(left / 60)).padStart(2, "0")}:${String(left % 60).padStart(2, "0")}`
}
