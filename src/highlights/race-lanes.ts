/**
 * The lanes of one race: which have swum in it, and which now show this race's result. The board
 * is judged as a whole each time (every reading carries every confirmed lane), so a result is
 * found however many readings were missed, and reported once.
 */
import type { LaneBoard, RaceBoard } from "../domain/race.ts"

/** A lane's settled result: lane, place and time as the board shows them. */
export interface LaneResult {
  readonly lane: number
  readonly place: number
  readonly time: string
  readonly timeMs: number
}

/**
 * How long the board must show a lane's result unchanged (on the race clock) before it is taken:
 * a provisional time is replaced 0.3–0.65 s after it first shows (the protocol notes, §5). The
 * decoder reads only values sent twice in a row, so a console that sends it once never shows it;
 * this hold also keeps one that repeats it from making a click of it.
 */
export const resultHoldMs = 1000

/** A result the console can settle after the clock shown in the same reading: the stopped packet comes 0.3–0.5 s after the touch, never seconds ahead of it. */
const aheadOfClockMs = 1000

interface LaneMemory {
  /** Seen running in this race (or already finished when the bridge joined the race). */
  ran: boolean
  /** Seen blank since it last ran: what it shows next may be the previous race's result brought back. */
  blankSinceRun: boolean
  /** Its result was reported (or found already made): never again in this race. */
  done: boolean
  /** A result judged not this race's (ahead of the clock): not taken later when the clock has caught up. */
  rejected?: string
}

const keyOf = (place: number, timeMs: number): string => `${place}/${timeMs}`

const resultOf = (lane: LaneBoard): LaneResult | undefined =>
  lane.state === "stopped" && lane.place !== undefined && lane.time !== undefined && lane.timeMs !== undefined
    ? { lane: lane.lane, place: lane.place, time: lane.time, timeMs: lane.timeMs }
    : undefined

/** The results a board shows, by lane: before a start, the previous race's. */
export const shownResults = (board: RaceBoard): ReadonlyMap<number, string> =>
  new Map(board.lanes.flatMap((lane) => {
    const result = resultOf(lane)
    return result === undefined ? [] : [[lane.lane, keyOf(result.place, result.timeMs)] as const]
  }))

/** A result shown, waiting to have been shown unchanged for `resultHoldMs`. */
interface HeldResult {
  readonly result: LaneResult
  readonly key: string
  readonly sinceMs: number
}

export class RaceLanes {
  private readonly memory = new Map<number, LaneMemory>()
  private readonly held = new Map<number, HeldResult>()
  private readonly before: ReadonlyMap<number, string>
  private readonly joined: boolean

  /**
   * `before`: the results the board showed before the start (the previous race's). `joined`: the
   * bridge first saw this race's clock well after its start, so a lane already showing a result
   * within the clock finished in it before the bridge was there.
   */
  constructor(before: ReadonlyMap<number, string>, joined: boolean) {
    this.before = before
    this.joined = joined
  }

  /** A blanked board: every lane that ran is blank, and shows nothing to judge. */
  blank(): void {
    for (const memory of this.memory.values()) if (memory.ran) memory.blankSinceRun = true
  }

  /**
   * Follows each lane of a board; with `judge`, returns the lanes that now show this race's result
   * for the first time. Without it (the start not yet known closely enough to stamp a touch), only
   * follows: a result still shown is judged on a later board.
   */
  follow(board: RaceBoard, clockMs: number, judge: boolean): ReadonlyArray<LaneResult> {
    return board.lanes.flatMap((lane) => {
      const memory = this.memoryOf(lane, clockMs)
      if (lane.state === "running") {
        memory.ran = true
        memory.blankSinceRun = false
        delete memory.rejected
        this.held.delete(lane.lane)
      } else if (lane.state === "blank") {
        memory.blankSinceRun ||= memory.ran
      } else if (judge) {
        const result = this.judge(lane, memory, clockMs)
        if (result !== undefined) return [result]
      }
      return []
    })
  }

  /**
   * The race ended (the clock reset) while results were still held: they are what the board
   * showed last, unchanged until the reset, and are taken now.
   */
  takeHeld(): ReadonlyArray<LaneResult> {
    const results = [...this.held.values()].map((held) => held.result)
    for (const result of results) this.memory.get(result.lane)!.done = true
    this.held.clear()
    return results
  }

  /** A lane's memory; first seen in a joined race already showing a result within the clock, it finished before the bridge was there. */
  private memoryOf(lane: LaneBoard, clockMs: number): LaneMemory {
    const known = this.memory.get(lane.lane)
    if (known !== undefined) return known
    const result = resultOf(lane)
    const finishedBefore = this.joined && result !== undefined && result.timeMs <= clockMs
    const memory: LaneMemory = { ran: finishedBefore, blankSinceRun: false, done: false }
    this.memory.set(lane.lane, memory)
    return memory
  }

  private judge(lane: LaneBoard, memory: LaneMemory, clockMs: number): LaneResult | undefined {
    const result = resultOf(lane)
    if (result === undefined || !memory.ran || memory.done) return undefined // a split, or not this race's lane
    const key = keyOf(result.place, result.timeMs)
    if (key === memory.rejected) return undefined
    // A lane switched back on after dropping out can bring the previous race's result back.
    const broughtBack = memory.blankSinceRun && this.before.get(lane.lane) === key
    if (broughtBack || result.timeMs > clockMs + aheadOfClockMs) {
      memory.rejected = key
      return undefined
    }
    return this.hold(result, key, memory, clockMs)
  }

  /** The result once it has been shown unchanged for `resultHoldMs`; a changed one is held anew. */
  private hold(result: LaneResult, key: string, memory: LaneMemory, clockMs: number): LaneResult | undefined {
    const held = this.held.get(result.lane)
    if (held === undefined || held.key !== key) {
      this.held.set(result.lane, { result, key, sinceMs: clockMs })
      return undefined
    }
    if (clockMs - held.sinceMs < resultHoldMs) return undefined
    this.held.delete(result.lane)
    memory.done = true
    return result
  }
}
