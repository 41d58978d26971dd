import { Effect, Schema } from "effect"
import type { RateBudget } from "./rate-budget.ts"
import { unauthorizedProbe } from "./retry-schedule.ts"

/** The probe's call was answered with 401 again: the token is still refused. */
export class StillUnauthorized extends Schema.TaggedError<StillUnauthorized>()("StillUnauthorized", {}) {}

/** What the probe needs: the budget it pauses and resumes, and one cheap authenticated call. */
export interface TokenProbePorts {
  readonly budget: Pick<RateBudget["Service"], "acquire" | "finished" | "resume">
  /** True when the service accepts the token. */
  readonly probe: Effect.Effect<boolean>
}

/**
 * After a 401 every place's delivery is paused (the budget grants only the probe's slot). One
 * probe at a time asks the service on `unauthorizedProbe`'s schedule until it accepts the token,
 * then resumes the budget: nothing is dropped meanwhile, and a revoked token costs the shared
 * budget one request per 30 s.
 */
export const makeTokenProbe = (ports: TokenProbePorts) => {
  let probing = false

  const attempt = Effect.gen(function*() {
    yield* ports.budget.acquire("probe")
    const accepted = yield* ports.probe.pipe(Effect.ensuring(ports.budget.finished))
    if (!accepted) return yield* new StillUnauthorized()
  })

  const untilAccepted = Effect.gen(function*() {
    yield* Effect.logError("service rejected the token (401): delivery is paused for every place, nothing is dropped; check the token")
    yield* attempt.pipe(Effect.retry({ schedule: unauthorizedProbe }))
    yield* ports.budget.resume
    yield* Effect.logInfo("service accepts the token again: delivery resumed")
  }).pipe(Effect.ensuring(Effect.sync(() => { probing = false })))

  return {
    /** Starts probing in the scope's background unless a probe already runs. */
    start: Effect.suspend(() => {
      if (probing) return Effect.void
      probing = true
      return Effect.asVoid(Effect.forkScoped(untilAccepted))
    })
  }
}
