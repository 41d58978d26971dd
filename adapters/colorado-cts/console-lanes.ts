import { type Board, blankModule, laneChannel, laneDigits, moduleAt, setModule } from "./console-board.ts"
import type { Change, ChangeQueue } from "./console-events.ts"
import { lengthDone, showResult } from "./console-results.ts"
import type { LaneScript, ModelFinish } from "./console-script.ts"

/**
 * One lane's race on the board (../shared/protocols/colorado-cts.md §5): switched off → blank 1–2 s
 * after the start; dropping out to blank and coming back; splits (stopped, no place, ~3 s); the
 * finish, first sent 0.3–0.5 s after the touch, perhaps provisional (time 30–40 ms lower, place
 * often blank, sent once and replaced 0.3–0.65 s later).
 */
type Random = { readonly int: (min: number, max: number) => number; readonly next: () => number }

const isBlank = (board: Board, channel: number) => {
  const module = moduleAt(board, channel)
  return !module.running && module.digits.every((d) => d === null)
}

const toBlankIfRunning = (lane: number): Change => (board) => {
  if (moduleAt(board, laneChannel(lane)).running) setModule(board, laneChannel(lane), blankModule)
}

/** Running again after a drop-out or a split: lane digit, place blank; the time digits stay in memory. */
const runningAgain = (board: Board, lane: number) => {
  const digits = [...moduleAt(board, laneChannel(lane)).digits]
  digits[0] = lane
  digits[1] = null
  setModule(board, laneChannel(lane), { running: true, digits })
}

export const switchedOff = (lane: number, hornMs: number, changes: ChangeQueue, random: Random) =>
  changes.add(hornMs + random.int(1000, 2000), toBlankIfRunning(lane))

const dropOut = (script: LaneScript, hornMs: number, changes: ChangeQueue) => {
  if (script.dropOut === undefined) return
  changes.add(hornMs + script.dropOut.fromMs, toBlankIfRunning(script.lane))
  changes.add(hornMs + script.dropOut.toMs, (board) => {
    if (!board.reset && isBlank(board, laneChannel(script.lane))) runningAgain(board, script.lane)
  })
}

const splits = (script: LaneScript, hornMs: number, changes: ChangeQueue, random: Random) => {
  const channel = laneChannel(script.lane)
  for (const splitMs of script.splitMs ?? []) {
    const shownFor = random.int(2800, 3200)
    const digits = laneDigits(script.lane, null, splitMs)
    changes.add(hornMs + splitMs + random.int(300, 460), (board, line, atMs) => {
      if (!moduleAt(board, channel).running) return
      setModule(board, channel, { running: false, digits })
      line.urgent(channel)
      lengthDone(board, script.lane)
      line.schedule(atMs + shownFor, (later) => {
        const shown = moduleAt(later, channel)
        if (!shown.running && shown.digits === digits) runningAgain(later, script.lane)
      })
    })
  }
}

const finish = (script: LaneScript, result: ModelFinish, changes: ChangeQueue, random: Random) => {
  const channel = laneChannel(script.lane)
  const latestHoldMs = random.int(4000, 5000)
  const settle: Change = (board, line, atMs) => {
    setModule(board, channel, { running: false, digits: laneDigits(result.lane, result.place, result.timeMs) })
    line.urgent(channel)
    showResult(board, line, atMs, result, latestHoldMs)
  }
  const atMs = result.touchMs + random.int(300, 460)
  if (script.provisional !== true) return changes.add(atMs, settle)
  const lowerMs = random.int(3, 4) * 10
  // R: in two of the three provisional packets the place was still blank.
  const place = random.next() < 1 / 3 ? result.place : null
  const replacedAfter = random.int(300, 620)
  changes.add(atMs, (board, line) => {
    setModule(board, channel, { running: false, digits: laneDigits(result.lane, place, Math.max(10, result.timeMs - lowerMs)) })
    line.urgent(channel)
    line.holdAfterSend(channel, replacedAfter, settle)
  })
}

/** A lane that swims: its drop-outs, splits and finish (`result` when it finishes). */
export const laneRace = (script: LaneScript, result: ModelFinish | undefined, hornMs: number, changes: ChangeQueue, random: Random) => {
  if (script.off === true) return switchedOff(script.lane, hornMs, changes, random)
  dropOut(script, hornMs, changes)
  splits(script, hornMs, changes, random)
  if (result !== undefined) finish(script, result, changes, random)
}
