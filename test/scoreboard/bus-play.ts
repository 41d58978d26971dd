import { concat, seededRandom } from "../../adapters/shared/seeded-random.ts"
import { busChatter, type BusConsole } from "./consoles/stramatel.ts"
import type { WriteTimes } from "./harness.ts"
import type { Step } from "./matches/match.ts"
import { type PlayClock, wallClock } from "./play-clock.ts"

export interface BusPlay {
  readonly seed: number
  /** Between two sends of the main frame: about 100 ms on a 452 M. */
  readonly everyMs?: number
  readonly clock?: PlayClock
}

/**
 * Shows each step on a console that repeats its whole state every ~100 ms:
 * a clock-only step for 1–2 sends, a scoring step for 2–3, each send the main
 * frame with bus chatter before and after it, and most sends cut at random
 * points (often inside the main frame) into writes 2–25 ms apart, as a
 * USB-serial adapter hands bytes over. Records, per step, when the write
 * holding the first byte (0xF8) of its first main frame went out: the time
 * its entry must carry, not that of a later repeat.
 */
export const playOnBus = async <B>(
  steps: ReadonlyArray<Step<B>>,
  console: BusConsole<B>,
  write: (bytes: Uint8Array) => unknown,
  written: WriteTimes,
  { everyMs = 100, seed, clock = wallClock }: BusPlay
): Promise<{ readonly sends: number; readonly mainFramesCut: number; readonly repeatedSteps: number }> => {
  const random = seededRandom(seed)
  let sends = 0
  let mainFramesCut = 0
  let repeatedSteps = 0
  for (const [i, step] of steps.entries()) {
    const times = step.tick ? random.int(1, 2) : random.int(2, 3)
    if (times > 1) repeatedSteps++
    for (let repeat = 0; repeat < times; repeat++) {
      const startedAt = clock.now()
      const before = busChatter(random)
      const main = console.mainFrame(step.board, sends++)
      const bytes = concat(before, main, busChatter(random))
      const mainAt = before.length
      const cuts = new Set<number>()
      if (random.next() < 0.7) {
        for (let n = random.int(1, 2); n > 0; n--) cuts.add(random.int(1, bytes.length - 1))
        if (random.next() < 0.5) cuts.add(mainAt + random.int(1, main.length - 1))
      }
      const ends = [...[...cuts].sort((a, b) => a - b), bytes.length]
      if (ends.some((end) => end > mainAt && end < mainAt + main.length)) mainFramesCut++
      let from = 0
      for (const end of ends) {
        if (from > 0) await clock.sleep(random.int(2, 25))
        if (repeat === 0 && from <= mainAt && mainAt < end) written[i] = [clock.now()]
        await write(bytes.subarray(from, end))
        from = end
      }
      await clock.sleep(Math.max(0, everyMs + random.int(-20, 20) - (clock.now() - startedAt)))
    }
  }
  return { sends, mainFramesCut, repeatedSteps }
}
