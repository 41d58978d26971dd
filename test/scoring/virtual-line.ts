import { Clock, Effect, Queue, Stream } from "effect"
import { TestClock } from "effect/testing"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import type { PlayClock } from "../scoreboard/play-clock.ts"

/**
 * A serial line on virtual time: what the test writes reaches the pipeline as a chunk stamped
 * with the virtual clock, and the test waits until the pipeline has handled it before the clock
 * moves on. So a scene's timing (gaps between changes, reads of one burst a few ms apart) is
 * exact, and the stamps are known to the millisecond.
 */
export const virtualLine = Effect.gen(function*() {
  const queue = yield* Queue.unbounded<Uint8Array>()
  const startedAt = yield* Clock.currentTimeMillis
  let elapsed = 0
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
  /** Moves the clock on a millisecond at a time, letting the settle timer run at every due moment. */
  const wait = (ms: number) =>
    Effect.gen(function*() {
      for (let left = Math.round(ms); left > 0; left -= 1) {
        yield* TestClock.adjust(1)
        elapsed++
        yield* handled
      }
    })
  // The console models are Promise-based (they also play over real ptys): they run these effects
  // in the test's own context, so its TestClock is the one they move.
  const run = Effect.runPromiseWith(yield* Effect.context<never>())
  const clock: PlayClock = { now: () => startedAt + elapsed, sleep: (ms) => run(wait(ms)) }
  return { chunks, wait, clock, write: (bytes: Uint8Array | string) => run(write(typeof bytes === "string" ? Buffer.from(bytes) : bytes)) }
})

export type VirtualLine = Effect.Success<typeof virtualLine>
