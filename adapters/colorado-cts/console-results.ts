import { type Board, blankDigits, laneChannel, laneDigits, moduleAt, numberDigits, pairHalf, setModule } from "./console-board.ts"
import type { LineControl } from "./console-events.ts"

/**
 * The result channels a settled finish fills in after its lane (../shared/protocols/colorado-cts.md
 * §4, §5): ch11 lengths (the leader's), ch14 place by lane (lanes 1–8), ch25–30 the lane pairs
 * (settled times only), ch18 the winner, ch15 the latest finish — queued, each held 4–5 s.
 */
export interface Result {
  readonly lane: number
  readonly place: number
  readonly timeMs: number
}

/** A stopped lane-like line: lane, place, time. */
export const resultLine = (result: Result) => ({ running: false, digits: laneDigits(result.lane, result.place, result.timeMs) })

/** ch11: the most lengths any lane has completed, d0–1. */
export const showLengths = (board: Board) => {
  const most = Math.max(0, ...board.lengths.values())
  setModule(board, 11, { running: false, digits: [...numberDigits(most, 2), ...blankDigits.slice(2)] })
}

export const lengthDone = (board: Board, lane: number) => {
  board.lengths.set(lane, (board.lengths.get(lane) ?? 0) + 1)
  showLengths(board)
}

/** ch14: d0 = lane 1's place … d7 = lane 8's place. */
export const showPlace = (board: Board, lane: number, place: number | null) => {
  if (lane > 8) return
  const digits = [...moduleAt(board, 14).digits]
  digits[lane - 1] = place
  setModule(board, 14, { running: false, digits })
}

/** ch25 = lanes 1 | 2 … ch30 = lanes 11 | 12: four digits each. */
export const showPairTime = (board: Board, lane: number, timeMs: number | undefined) => {
  const channel = 25 + Math.floor((lane - 1) / 2)
  const at = ((lane - 1) % 2) * 4
  const module = moduleAt(board, channel)
  const half = pairHalf(timeMs)
  const digits = [...module.digits]
  const flags = [...(module.flags ?? [0, 0, 0, 0, 0, 0, 0, 0])]
  digits.splice(at, 4, ...half.digits)
  flags.splice(at, 4, ...half.flags)
  setModule(board, channel, { running: false, digits, flags })
}

/** Everything a settled finish changes besides its lane's own channel. */
export const showResult = (board: Board, line: LineControl, atMs: number, result: Result, latestHoldMs: number) => {
  lengthDone(board, result.lane)
  showPlace(board, result.lane, result.place)
  showPairTime(board, result.lane, result.timeMs)
  if (result.place === 1) setModule(board, 18, resultLine(result))
  const showAt = Math.max(atMs, board.ch15FreeAt)
  board.ch15FreeAt = showAt + latestHoldMs
  line.schedule(showAt, (later) => setModule(later, 15, resultLine(result)))
}

/** The previous race's results as the board holds them before a start. */
export const showPreviousResults = (board: Board, results: ReadonlyArray<Result>, lanes: ReadonlyArray<number>) => {
  for (const lane of lanes) {
    const result = results.find((r) => r.lane === lane)
    setModule(board, laneChannel(lane), result === undefined ? { running: false, digits: blankDigits } : resultLine(result))
    showPlace(board, lane, result?.place ?? null)
    showPairTime(board, lane, result?.timeMs)
  }
  const latest = results.reduce<Result | undefined>((last, r) => (last === undefined || r.timeMs > last.timeMs ? r : last), undefined)
  setModule(board, 15, latest === undefined ? { running: false, digits: blankDigits } : resultLine(latest))
}
