import { Clock, Effect, Queue } from "effect"
import type { ButtonDecoder } from "../../adapters/button-source.ts"
import type { ButtonEvent } from "../domain/button.ts"

/**
 * Releases the presses a decoder holds back (a hold, a multi-press window) once their time has
 * come: it sleeps until the decoder's next deadline, or until `bell` rings (new input may have
 * moved the deadline), then flushes. Time is Effect's Clock, so a test can drive it with TestClock.
 */
export const flushWhenDue = <E, R>(
  decoder: Pick<ButtonDecoder, "flush" | "nextDeadline">,
  bell: Queue.Dequeue<void>,
  onPress: (press: ButtonEvent) => Effect.Effect<void, E, R>
): Effect.Effect<never, E, R> =>
  Effect.forever(Effect.gen(function*() {
    const deadline = decoder.nextDeadline()
    if (deadline === undefined) return yield* Queue.take(bell)
    const now = yield* Clock.currentTimeMillis
    yield* Queue.take(bell).pipe(Effect.timeoutOption(Math.max(0, deadline - now)))
    for (const press of decoder.flush(yield* Clock.currentTimeMillis)) yield* onPress(press)
  }))
