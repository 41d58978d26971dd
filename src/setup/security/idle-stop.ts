import { Clock, Duration, Effect } from "effect"

/**
 * The setup server stops after this long without use: a forgotten one is not left listening. Use is
 * a login or a request in a session that is not the page's background polling; anyone else's
 * requests (a scanner, a stranger's wrong codes, an open tab polling) keep nothing alive.
 */
export const serverIdleMs = 30 * 60_000

export interface IdleWatch {
  /** The technician used the page: the idle time starts again. */
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
