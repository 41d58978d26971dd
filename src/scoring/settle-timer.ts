import { Clock, Effect, Queue, type Semaphore } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { ChangeSettler, LoopWatch } from "./change-settler.ts"

/** How often a held burst is looked at: a few looks per settle window. */
const watchMs = 10

/**
 * A look over 25 ms after the one before means the event loop was held (timer jitter stays under
 * it); the burst then waits 30 ms more (three looks) for the frames that waited to be read.
 */
const loopWatch: LoopWatch = { blindMs: watchMs + 15, graceMs: 3 * watchMs }

/**
 * Looks at a held burst at `now`: a look over `blindMs` after the one before means the event loop
 * was held and unread frames of the change may be waiting (ChangeSettler.watch); returns what settled.
 */
export const watchAndSettle = (settler: ChangeSettler, now: number): Array<ScoreEntry> => {
  settler.watch(now, loopWatch)
  return settler.due(now)
}

/**
 * Releases a held burst once its frames have stopped coming, looking every `watchMs` while one is
 * held and sleeping on `bell` otherwise. It takes `turn` for each look, as chunks do, so a burst
 * is released and stored whole, never while a frame is applied.
 */
export const settleTimer = <E, R>(options: {
  readonly settler: ChangeSettler
  readonly turn: Semaphore.Semaphore
  readonly bell: Queue.Queue<void>
  readonly store: (settled: ReadonlyArray<ScoreEntry>) => Effect.Effect<void, E, R>
}) =>
  Effect.gen(function*() {
    const { settler } = options
    while (true) {
      if (settler.deadline === undefined) {
        yield* Queue.take(options.bell)
        continue
      }
      yield* options.turn.withPermit(Effect.flatMap(Clock.currentTimeMillis, (now) => options.store(watchAndSettle(settler, now))))
      const deadline = settler.deadline
      if (deadline !== undefined) yield* Effect.sleep(Math.max(1, Math.min(watchMs, deadline - (yield* Clock.currentTimeMillis))))
    }
  })
