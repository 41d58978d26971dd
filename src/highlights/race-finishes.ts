import type { Finish, RaceBoard } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"
import { type ClockSample, runsOn, StartEstimate } from "./race-start.ts"
import { type LaneResult, RaceLanes, shownResults } from "./race-lanes.ts"
import { MadeFinishes, type MadeFinish } from "./race-made.ts"

export type { MadeFinish } from "./race-made.ts"

/** Where the race stands, for the status page. */
export interface RaceState {
  /** `waiting`: no race seen running yet (or the clock reset); `running`: the clock counts; */
  readonly phase: "waiting" | "running"
  /** The race's start (ms since epoch), as estimated from the running clock; absent while waiting. */
  readonly startedAt?: number
  /** The event and heat the board showed at the start (or now, while waiting). */
  readonly event?: number
  readonly heat?: number
  /** This race's finishes so far (the last race's while waiting), by place. */
  readonly finishes: ReadonlyArray<Finish>
}

/** A clock first seen this far into its race was started before the bridge was there: the race is joined, not seen from its start. */
const joinedAfterMs = 3000

/** The board may show no event/heat at the start (after "blank" they come a cycle late): the first shown this soon after is the race's. */
const numbersWithinMs = 5000

/** Two starts this close are one race: a clock reset that was not one (a misread "0.0") resumes it. */
const sameStartMs = 1000

/** One race: from its start to the clock's reset. */
interface Race {
  readonly estimate: StartEstimate
  readonly lanes: RaceLanes
  readonly firstSeenAt: number
  numbers?: { readonly event?: number; readonly heat?: number }
  readonly finishes: Array<Finish>
}

const numbersOf = (board: RaceBoard): { readonly event?: number; readonly heat?: number } | undefined =>
  board.event === undefined && board.heat === undefined
    ? undefined
    : { ...(board.event === undefined ? {} : { event: board.event }), ...(board.heat === undefined ? {} : { heat: board.heat }) }

const byPlace = (finishes: ReadonlyArray<Finish>): ReadonlyArray<Finish> =>
  [...finishes].sort((a, b) => a.place - b.place || a.lane - b.lane)

/**
 * Turns the race boards of one place's readings into a race: its start, the event/heat of that
 * start, and each lane's finish once settled — never the previous race's results, a split, a lane
 * coming back after dropping out, or a blanked board. Pure; the daemon and `replay` use it alike.
 */
export class RaceFinishes {
  private readonly made: MadeFinishes
  private phase: "waiting" | "running" = "waiting"
  /** The race running, or the last one while waiting. */
  private race: Race | undefined
  /** A clock reading not (yet) part of a race: with the next one, it may start one. */
  private candidate: ClockSample | undefined
  /** The clock the last reading showed: a reading showing the same (a lane's change) is no new clock reading. */
  private lastClockMs: number | undefined
  private board: RaceBoard | undefined
  /** The results the board showed while waiting: the previous race's, for the next race. */
  private shownBefore: ReadonlyMap<number, string> = new Map()

  constructor(options: { readonly made?: ReadonlyArray<MadeFinish> } = {}) {
    this.made = new MadeFinishes(options.made ?? [])
  }

  /** A reading of the place's board: the finishes it settles (usually none). */
  onReading(reading: Reading): ReadonlyArray<Finish> {
    const board = reading.race
    if (board === undefined) return []
    this.board = board
    const wasRunning = this.phase === "running"
    this.followClock(reading.receivedAt, board)
    const race = this.race
    // The reset ends the race: results still held were shown unchanged until then.
    if (wasRunning && this.phase === "waiting" && race !== undefined) return this.finishesOf(race, race.lanes.takeHeld())
    if (this.phase === "waiting" || race === undefined) {
      if (!board.blanked) this.shownBefore = shownResults(board)
      return []
    }
    if (race.numbers === undefined && reading.receivedAt - race.firstSeenAt <= numbersWithinMs) {
      const numbers = numbersOf(board)
      if (numbers !== undefined) race.numbers = numbers
    }
    if (board.blanked) {
      race.lanes.blank()
      return []
    }
    const clockMs = board.clockMs ?? reading.receivedAt - race.estimate.value
    return this.finishesOf(race, race.lanes.follow(board, clockMs, race.estimate.settled))
  }

  get state(): RaceState {
    const race = this.race
    if (this.phase === "running" && race !== undefined) {
      return { phase: "running", startedAt: race.estimate.value, ...race.numbers, finishes: byPlace(race.finishes) }
    }
    return { phase: "waiting", ...(this.board === undefined ? {} : numbersOf(this.board)), finishes: byPlace(race?.finishes ?? []) }
  }

  /** The clock reset ends the race; two readings of a clock running start one (or resume it). */
  private followClock(receivedAt: number, board: RaceBoard): void {
    if (board.clockReset) {
      this.phase = "waiting"
      this.candidate = undefined
      this.lastClockMs = undefined
      return
    }
    const clockMs = board.clockMs
    const fresh = clockMs !== undefined && clockMs !== this.lastClockMs
    this.lastClockMs = clockMs
    if (!fresh) return
    const sample = { receivedAt, clockMs }
    const race = this.phase === "running" ? this.race : undefined
    if (race !== undefined && race.estimate.fits(sample)) {
      race.estimate.take(sample)
      this.candidate = undefined
      return
    }
    // A running race's clock read late (a delayed read) is still that clock; only a clock gone back started again.
    if (race !== undefined && clockMs >= race.estimate.highestClockMs) return
    const candidate = this.candidate
    this.candidate = sample
    if (candidate !== undefined && runsOn(candidate, sample)) this.begin(candidate, sample, receivedAt, board)
  }

  private begin(first: ClockSample, second: ClockSample, receivedAt: number, board: RaceBoard): void {
    this.candidate = undefined
    this.phase = "running"
    const estimate = new StartEstimate(first, second)
    const last = this.race
    if (last !== undefined && Math.abs(estimate.value - last.estimate.value) <= sameStartMs) {
      for (const sample of [first, second]) if (last.estimate.fits(sample)) last.estimate.take(sample)
      return
    }
    this.made.startedAt(estimate.value)
    const joined = first.clockMs >= joinedAfterMs
    const numbers = (joined ? this.made.numbersSince(estimate.value) : undefined) ?? numbersOf(board)
    this.race = {
      estimate,
      lanes: new RaceLanes(this.shownBefore, joined),
      firstSeenAt: receivedAt,
      ...(numbers === undefined ? {} : { numbers }),
      finishes: []
    }
  }

  /** Stamps each settled result at its touch; one already made (before a restart) is kept for the status, not reported again. */
  private finishesOf(race: Race, results: ReadonlyArray<LaneResult>): ReadonlyArray<Finish> {
    return results.flatMap((result) => {
      const finish: Finish = { ...result, ...race.numbers, at: race.estimate.value + result.timeMs }
      race.finishes.push(finish)
      if (this.made.has(finish)) return []
      this.made.add(finish)
      return [finish]
    })
  }
}
