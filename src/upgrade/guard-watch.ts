import { Clock, Console, Effect, Schedule } from "effect"
import { type GuardSettings, type GuardState, type Observation, observe, progressText, startWatch, type Verdict } from "./guard-rules.ts"

/** A look at the new version; the guard stamps it with the clock's time. */
export type Look<R> = Effect.Effect<Omit<Observation, "at">, never, R>

export interface WatchOptions {
  readonly settings: GuardSettings
  /** Between two looks. */
  readonly pollMs: number
  /** Where progress lines go (the journal: stdout). */
  readonly say?: (line: string) => Effect.Effect<void>
}

/**
 * Looks at the new version every `pollMs` until the rules pass or fail it. Bounded by the watch:
 * the rules pass it once `watchMs` is over. Logs a line whenever the picture changes, so the
 * journal shows how the watch went without a line per look.
 */
export const watchUpgrade = <R>(options: WatchOptions, look: Look<R>): Effect.Effect<Exclude<Verdict, { _tag: "Watching" }>, never, R> =>
  Effect.gen(function*() {
    const say = options.say ?? ((line: string) => Console.log(line))
    let state: GuardState = startWatch(yield* Clock.currentTimeMillis)
    let said = ""
    const step = Effect.gen(function*() {
      const seen = yield* look
      const at = yield* Clock.currentTimeMillis
      const next = observe(options.settings, state, { ...seen, at })
      state = next.state
      const line = progressText(state)
      if (line !== said) yield* say(`upgrade guard: ${line}`)
      said = line
      return next.verdict
    })
    const verdict = yield* Effect.repeat(step, {
      schedule: Schedule.spaced(options.pollMs),
      until: (v) => v._tag !== "Watching"
    })
    // `until` lets only a finished verdict out.
    return verdict as Exclude<Verdict, { _tag: "Watching" }>
  })
