import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import type { FieldConsole } from "./consoles/daktronics-fields.ts"
import type { WriteTimes } from "./harness.ts"
import type { Step } from "./matches/match.ts"
import { type PlayClock, wallClock } from "./play-clock.ts"

/**
 * How a change's frames reach the daemon: all in one write (one read), or cut
 * at random points (mid-frame too) into 2–4 writes a few ms to a few tens of
 * ms apart, as a USB-serial adapter hands a burst over in 16 ms batches.
 */
export type Delivery = "one-write" | "split-reads"

export interface FieldPlay {
  readonly delivery: Delivery | "mixed"
  readonly seed: number
  /** Before a step that changes the score: longer than the settle window, as real changes are. */
  readonly changeGapMs?: number
  /** Before a clock-only step. */
  readonly tickGapMs?: number
  readonly clock?: PlayClock
}

/** Largest pause between two reads of one burst: below the 80 ms default window at 19200 baud, with room for jitter. */
const maxSplitGapMs = 30

/**
 * Shows each step on a field-per-frame console, recording when each write of
 * a step went out: the entry's stamp is that of the write holding the first
 * byte of the step's first score-changing frame.
 */
export const playFields = async <B>(
  steps: ReadonlyArray<Step<B>>,
  console: FieldConsole<B>,
  write: (bytes: Uint8Array) => unknown,
  written: WriteTimes,
  { delivery, seed, changeGapMs = 250, tickGapMs = 40, clock = wallClock }: FieldPlay
): Promise<{ readonly splitSteps: number; readonly multiFrameSteps: number; readonly longestPauseMs: number }> => {
  const random = seededRandom(seed)
  let splitSteps = 0
  let multiFrameSteps = 0
  // The longest pause between two writes of one step, as it really went: a loaded machine can hold
  // a timer past the settle window, and then the daemon rightly sees two changes.
  let longestPauseMs = 0
  for (const [i, step] of steps.entries()) {
    if (i > 0) await clock.sleep(step.tick ? tickGapMs : changeGapMs)
    const frames = console.frames(step.board)
    if (frames.length > 1) multiFrameSteps++
    const bytes = Buffer.concat(frames)
    const split = delivery === "split-reads" || (delivery === "mixed" && random.next() < 0.5)
    ;(written[i] ??= []).push(clock.now())
    if (!split || bytes.length < 4) {
      await write(bytes)
      continue
    }
    splitSteps++
    let lastWriteAt = clock.now()
    const cuts = [...new Set(Array.from({ length: random.int(1, 3) }, () => random.int(1, bytes.length - 1)))].sort((a, b) => a - b)
    let from = 0
    for (const cut of [...cuts, bytes.length]) {
      if (from > 0) await clock.sleep(random.int(2, maxSplitGapMs))
      longestPauseMs = Math.max(longestPauseMs, clock.now() - lastWriteAt)
      lastWriteAt = clock.now()
      // Every write is recorded: the frame that changes the score may start in any of them.
      if (from > 0) written[i]!.push(lastWriteAt)
      await write(bytes.subarray(from, cut))
      from = cut
    }
  }
  return { splitSteps, multiFrameSteps, longestPauseMs }
}
