/**
 * A race's start, estimated from the running clock. A clock reading shows the elapsed time
 * truncated to the tenth and reaches the bridge some tens of ms after the console sent it, so
 * `receivedAt − clockMs` of every reading is the start plus a positive lag: each reading bounds
 * the start from above, and the smallest of them is the tightest bound. A misread clock digit
 * that shows the clock ahead would put that bound below the true start; it stands alone below the
 * others, so it is not taken.
 */

/** One reading of the running clock: when it arrived and the elapsed time it showed. */
export interface ClockSample {
  readonly receivedAt: number
  readonly clockMs: number
}

/**
 * How far a clock's progress may differ from the time between its readings' arrivals and still be
 * one clock running: a serial read delayed by the machine, a chunk holding several packets.
 */
export const clockSlackMs = 500

/** Lags of honest readings lie within truncation (100 ms) plus jitter of each other; a bound this far below the next is a misread. */
const clusterMs = 50

/** Enough of the lowest bounds to pass over a misread or two; the rest can never be the minimum. */
const kept = 4

/** The clock must have been followed this long before a finish is stamped from the estimate. */
const settleMs = 2000

const boundOf = (sample: ClockSample): number => sample.receivedAt - sample.clockMs

/** The second shows the same clock as the first, moved on by about the time between their arrivals. */
export const runsOn = (first: ClockSample, second: ClockSample): boolean =>
  second.clockMs > first.clockMs &&
  Math.abs(second.clockMs - first.clockMs - (second.receivedAt - first.receivedAt)) <= clockSlackMs

/** The start of one race, refined by each clock reading consistent with it. */
export class StartEstimate {
  /** The lowest bounds seen, ascending. */
  private lowest: Array<number> = []
  private firstClockMs: number
  private lastClockMs: number

  constructor(first: ClockSample, second: ClockSample) {
    this.firstClockMs = first.clockMs
    this.lastClockMs = first.clockMs
    this.take(first)
    this.take(second)
  }

  /** The start (ms since epoch): the lowest bound that has another within a cluster above it, else the second lowest. */
  get value(): number {
    const supported = this.lowest.find((bound, i) => {
      const next = this.lowest[i + 1]
      return next !== undefined && next - bound <= clusterMs
    })
    return supported ?? this.lowest[Math.min(1, this.lowest.length - 1)]!
  }

  /** The highest clock reading taken: a reading well below it means the clock started again. */
  get highestClockMs(): number {
    return this.lastClockMs
  }

  /** The clock has been followed long enough for the estimate to stamp a finish to within a few hundredths. */
  get settled(): boolean {
    return this.lastClockMs - this.firstClockMs >= settleMs
  }

  /** Whether a reading shows this race's clock, within the slack of the estimate. */
  fits(sample: ClockSample): boolean {
    return Math.abs(boundOf(sample) - this.value) <= clockSlackMs
  }

  /** Takes a reading that fits (the caller checked). */
  take(sample: ClockSample): void {
    this.lowest = [...this.lowest, boundOf(sample)].sort((a, b) => a - b).slice(0, kept)
    this.firstClockMs = Math.min(this.firstClockMs, sample.clockMs)
    this.lastClockMs = Math.max(this.lastClockMs, sample.clockMs)
  }
}
