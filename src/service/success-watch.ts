import { Deferred, Effect } from "effect"

/**
 * When the service last answered a request with success (2xx), whoever sent it: delivery,
 * look-ups, read-backs, token probes. Delivery reads it to tell an outage (nobody is answered)
 * from a failure of its own, and waits on it to end back-offs the moment the service is back.
 */
export interface SuccessWatch {
  /** ms; -Infinity until the first success. */
  readonly lastAt: Effect.Effect<number>
  /** Completes once a success was recorded at or after `at` (ms): at once if there already was one. */
  successSince(at: number): Effect.Effect<void>
  /** Called by the requester for every 2xx answer. */
  record(at: number): void
}

export const makeSuccessWatch = (): SuccessWatch => {
  let lastAt = Number.NEGATIVE_INFINITY
  // Completed and replaced on every success, so a waiter never sees a stale one.
  let next = Deferred.makeUnsafe<void>()
  const successSince = (at: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (lastAt >= at) return Effect.void
      return Deferred.await(next).pipe(Effect.andThen(successSince(at)))
    })
  return {
    lastAt: Effect.sync(() => lastAt),
    successSince,
    record: (at) => {
      lastAt = Math.max(lastAt, at)
      const done = next
      next = Deferred.makeUnsafe<void>()
      Deferred.doneUnsafe(done, Effect.void)
    }
  }
}
