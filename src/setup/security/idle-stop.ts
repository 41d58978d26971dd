import { Clock, Duration, Effect } from "effect"

/** The setup server stops after this long without any request: a forgotten one is not left listening as root. */
export const serverIdleMs = 30 * 60_000

export interface IdleWatch {
  /** A request came: the idle time starts again. */
  readonly touch: Effect.Effect<void>
  /** Completes once `idleMs` have passed without a touch. */
  readonly untilIdle: Effect.Effect<void>
}

/** Idle time on Effect's Clock, so a test moves it with TestClock instead of waiting half an hour. */
export const makeIdleWatch = (idleMs: number = serverIdleMs): Effect.Effect<IdleWatch> =>
  Effect.map(Clock.currentTimeMillis, (startedAt) => {
    let lastAt = startedAt
    const untilIdle = Effect.gen(function*() {
      // Each round sleeps until the last touch would make it idle; a touch meanwhile means another round.
      for (;;) {
        const left = lastAt + idleMs - (yield* Clock.currentTimeMillis)
        if (left <= 0) return
        yield* Effect.sleep(Duration.millis(left))
      }
    })
    return {
      touch: Effect.map(Clock.currentTimeMillis, (now) => {
        lastAt = now
      }),
      untilIdle
    }
  })
