import { Clock, Effect } from "effect"

/** Wrong codes allowed in `limitWindowMs`, from anyone together: one attacker with many addresses counts once. */
export const wrongCodesAllowed = 5
export const limitWindowMs = 60_000

export interface LoginLimiter {
  /** 0 when a code may be tried now, else how long until one may (the right code waits too). */
  readonly waitMs: Effect.Effect<number>
  readonly recordWrong: Effect.Effect<void>
}

/**
 * The limit on guessing the one-time code: a sliding minute over the wrong codes of every
 * client. With 8 symbols of 31 that is ~10^12 codes at 5 a minute; the right code being refused
 * while the limit holds is what makes guessing during it pointless.
 */
export const makeLoginLimiter: Effect.Effect<LoginLimiter> = Effect.sync(() => {
  let wrongAt: Array<number> = []
  const recent = (now: number) => {
    wrongAt = wrongAt.filter((at) => now - at < limitWindowMs)
    return wrongAt
  }
  return {
    waitMs: Effect.map(Clock.currentTimeMillis, (now) => {
      const wrong = recent(now)
      return wrong.length < wrongCodesAllowed ? 0 : wrong[wrong.length - wrongCodesAllowed]! + limitWindowMs - now
    }),
    recordWrong: Effect.map(Clock.currentTimeMillis, (now) => {
      recent(now).push(now)
    })
  }
})
