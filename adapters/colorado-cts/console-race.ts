import { type Board, blankDigits, blankModule, laneChannel, lanes, moduleAt, numberDigits, setModule, textDigits, timeText } from "./console-board.ts"
import type { ChangeQueue } from "./console-events.ts"
import { laneRace, switchedOff } from "./console-lanes.ts"
import { showLengths, showPairTime, showPlace, showPreviousResults } from "./console-results.ts"
import type { RaceScript, ModelFinish } from "./console-script.ts"

/**
 * One race on the board, as changes in time (../shared/protocols/colorado-cts.md §5): the previous
 * results before the start, the horn (every lane channel running, the stale place blanked ~0.8 s
 * later), each lane's race, the operator (advance, blank), and the reset after the clock ran on.
 */
type Random = { readonly int: (min: number, max: number) => number; readonly next: () => number }

export interface RaceTimes {
  readonly segmentStartMs: number
  readonly hornMs: number
  readonly resetMs: number
  readonly endMs: number
}

const hundredths = (ms: number) => Math.floor(ms / 10 + 1e-9) * 10

const checkLanes = (script: RaceScript) => {
  for (const lane of script.lanes) {
    if (!Number.isInteger(lane.lane) || lane.lane < 1 || lane.lane > 12) {
      throw new Error(`console model: lane ${lane.lane} does not exist; lanes are 1–12 (11 and 12 on ch23, ch24)`)
    }
  }
}

const finishing = (script: RaceScript) => script.lanes.filter((l) => l.finishMs !== undefined && l.off !== true)

/** The horn falls on a clock tick (the console's tick starts with its timer), the reset after the run-on. */
export const raceTimes = (script: RaceScript, segmentStartMs: number, tickMs: number): RaceTimes => {
  checkLanes(script)
  const hornMs = Math.ceil((segmentStartMs + script.preStartMs) / tickMs - 1e-9) * tickMs
  const lastTouchMs = Math.max(0, ...finishing(script).map((l) => l.finishMs!))
  const resetMs = hornMs + lastTouchMs + script.runOnMs
  return { segmentStartMs, hornMs, resetMs, endMs: resetMs + (script.afterMs ?? 2000) }
}

/** The settled finishes: places by time (equal hundredths share a place), in touch order. */
export const finishesOf = (script: RaceScript, times: RaceTimes): Array<ModelFinish> => {
  const timed = finishing(script).map((l) => ({ lane: l.lane, timeMs: hundredths(l.finishMs!), touchMs: times.hornMs + l.finishMs! }))
  return timed
    .map((f) => ({
      lane: f.lane,
      place: 1 + timed.filter((other) => other.timeMs < f.timeMs).length,
      timeMs: f.timeMs,
      time: timeText(f.timeMs),
      touchMs: f.touchMs,
      event: script.event,
      heat: script.heat
    }))
    .sort((a, b) => a.touchMs - b.touchMs)
}

const eventHeatDigits = (event: number, heat: number) => [...numberDigits(event, 3), null, null, ...numberDigits(heat, 3)]

/** Before the start: the race's event/heat, the previous results (when given), the reset state. */
const preStart = (script: RaceScript) => (board: Board) => {
  board.reset = true
  board.mode = "normal"
  setModule(board, 12, { running: false, digits: eventHeatDigits(script.event, script.heat) })
  if (script.previous !== undefined) showPreviousResults(board, script.previous.results, lanes)
  setModule(board, 17, { running: false, digits: textDigits("  0 0  0") })
  setModule(board, 18, blankModule)
}

/** The horn: every lane channel running (place digit still the previous race's), results cleared. */
const horn = (script: RaceScript) => (board: Board) => {
  board.reset = false
  for (const lane of lanes) {
    const digits = [...moduleAt(board, laneChannel(lane)).digits]
    digits[0] = lane
    setModule(board, laneChannel(lane), { running: true, digits })
    showPlace(board, lane, null)
    showPairTime(board, lane, undefined)
  }
  board.lengths.clear()
  showLengths(board)
  setModule(board, 15, { running: true, digits: blankDigits })
  setModule(board, 18, { running: true, digits: blankDigits })
  board.follow17 = script.lanes.find((l) => l.off !== true)?.lane
}

const staleBlanked = (board: Board) => {
  for (const lane of lanes) {
    const module = moduleAt(board, laneChannel(lane))
    if (module.running) setModule(board, laneChannel(lane), { running: true, digits: [lane, null, ...module.digits.slice(2)] })
  }
}

/** The reset: lanes still running go blank, finished ones keep their results until the next start. */
const reset = (board: Board) => {
  board.reset = true
  board.follow17 = undefined
  for (const lane of lanes) if (moduleAt(board, laneChannel(lane)).running) setModule(board, laneChannel(lane), blankModule)
  setModule(board, 17, { running: false, digits: textDigits("  0 0  0") })
  setModule(board, 18, blankModule)
  if (moduleAt(board, 15).running) setModule(board, 15, blankModule)
}

const operator = (script: RaceScript, times: RaceTimes, changes: ChangeQueue, random: Random) => {
  const next = script.advanceTo ?? { event: script.event, heat: script.heat + 1 }
  const advance = (board: Board) => setModule(board, 12, { running: false, digits: eventHeatDigits(next.event, next.heat) })
  if (script.advanceAtMs !== undefined) changes.add(times.hornMs + script.advanceAtMs, advance)
  else if (script.advanceTo !== undefined) {
    const afterResetMs = Math.min(random.int(1000, 3000), (script.afterMs ?? 2000) / 2)
    changes.add(times.resetMs + afterResetMs, (board) => {
      if (board.reset) advance(board)
    })
  }
  const blank = script.blank
  if (blank === undefined) return
  changes.add(times.hornMs + blank.fromMs, (board) => {
    board.mode = blank.total === true ? "total" : "blank"
  })
  changes.add(times.hornMs + blank.toMs, (board) => {
    board.mode = "normal"
  })
}

/** All of one race's changes. */
export const addRace = (script: RaceScript, times: RaceTimes, finishes: ReadonlyArray<ModelFinish>, changes: ChangeQueue, random: Random) => {
  changes.add(times.segmentStartMs, preStart(script))
  changes.add(times.hornMs, horn(script))
  changes.add(times.hornMs + random.int(700, 900), staleBlanked)
  const raceNumber = eventHeatDigits(script.event, script.heat)
  changes.add(times.hornMs + random.int(800, 1500), (board) => setModule(board, 20, { running: false, digits: raceNumber }))
  for (const lane of lanes) {
    const lanesScript = script.lanes.find((l) => l.lane === lane)
    if (lanesScript === undefined) switchedOff(lane, times.hornMs, changes, random)
    else laneRace(lanesScript, finishes.find((f) => f.lane === lane), times.hornMs, changes, random)
  }
  operator(script, times, changes, random)
  changes.add(times.resetMs, reset)
  const lengthsBlankMs = random.int(2000, 4000)
  changes.add(times.resetMs + lengthsBlankMs, (board) => {
    if (board.reset) setModule(board, 11, blankModule)
  })
}
