import { Clock, Effect, Queue, Stream } from "effect"
import { TestClock } from "effect/testing"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import type { FieldConsole } from "../scoreboard/consoles/daktronics-fields.ts"
import type { Step } from "../scoreboard/matches/match.ts"

/**
 * A serial line on virtual time: what the test writes reaches the pipeline as a chunk stamped
 * with the virtual clock, and the test waits until the pipeline has handled it before the clock
 * moves on. So a scene's timing (gaps between changes, reads of one burst a few ms apart, an
 * event loop held past the settle window) is exact, and the stamps are known to the millisecond.
 */
export const virtualLine = Effect.gen(function*() {
  const queue = yield* Queue.unbounded<Uint8Array>()
  let pushed = 0
  let taken = 0
  let handledCount = 0
  // runForEach asks for the next chunk only once it has handled the one before.
  const chunks: Stream.Stream<ReceivedChunk> = Stream.fromEffectRepeat(Effect.gen(function*() {
    handledCount = taken
    const bytes = yield* Queue.take(queue)
    taken++
    return { bytes, receivedAt: yield* Clock.currentTimeMillis }
  }))
  const turn = Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
  /**
   * Waits (a bounded number of event-loop turns) until the pipeline has handled every chunk
   * written so far, and gives fibers woken by the clock (the settle timer) a few turns to finish.
   */
  const handled = Effect.gen(function*() {
    for (let turns = 0; handledCount < pushed; turns++) {
      if (turns > 10_000) return yield* Effect.die(new Error("the pipeline did not handle the written chunks"))
      yield* turn
    }
    for (let i = 0; i < 3; i++) yield* turn
  })
  const write = (bytes: Uint8Array) =>
    Effect.gen(function*() {
      pushed++
      yield* Queue.offer(queue, bytes)
      yield* handled
    })
  /** Moves the clock on, letting the settle timer run at every due moment. */
  const wait = (ms: number) =>
    Effect.gen(function*() {
      for (let left = ms; left > 0; left -= 1) {
        yield* TestClock.adjust(1)
        yield* handled
      }
    })
  return { chunks, write, wait }
})

export type VirtualLine = Effect.Success<typeof virtualLine>

/**
 * `playFields` (test/scoreboard/field-play.ts) on virtual time: each step's frames in one write or
 * cut at random points into 2–4 writes 2–30 ms apart (or either, at random per step: "mixed");
 * the write times of each step are recorded.
 */
export const playVirtual = <B>(
  line: VirtualLine,
  steps: ReadonlyArray<Step<B>>,
  console: FieldConsole<B>,
  { split, seed, changeGapMs = 250, tickGapMs = 40 }: { readonly split: boolean | "mixed"; readonly seed: number; readonly changeGapMs?: number; readonly tickGapMs?: number }
) =>
  Effect.gen(function*() {
    const random = seededRandom(seed)
    const written: Array<Array<number>> = []
    for (const [i, step] of steps.entries()) {
      if (i > 0) yield* line.wait(step.tick ? tickGapMs : changeGapMs)
      const bytes = Buffer.concat(console.frames(step.board))
      const times: Array<number> = (written[i] = [])
      const cut = split === "mixed" ? random.next() < 0.5 : split
      if (!cut || bytes.length < 4) {
        times.push(yield* Clock.currentTimeMillis)
        yield* line.write(bytes)
        continue
      }
      const cuts = [...new Set(Array.from({ length: random.int(1, 3) }, () => random.int(1, bytes.length - 1)))].sort((a, b) => a - b)
      let from = 0
      for (const cut of [...cuts, bytes.length]) {
        if (from > 0) yield* line.wait(random.int(2, 30))
        times.push(yield* Clock.currentTimeMillis)
        yield* line.write(bytes.subarray(from, cut))
        from = cut
      }
    }
    return written
  })
