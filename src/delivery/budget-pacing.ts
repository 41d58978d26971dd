import { Clock, Effect, Random } from "effect"

const backoffBaseMs = 1_000
// Capped well inside the minute of footage a click can still be clipped from.
const backoffCapMs = 15_000

/**
 * When the next request may leave: no closer than the service's limit to the previous grant,
 * send and answer, and not before a 429's back-off ends. Counts what was granted in the last minute.
 */
export const makePacing = (requestsPerSecond: number, margin: number) => {
  const intervalMs = (1000 / requestsPerSecond) * (1 + margin)
  const sent: Array<number> = []
  // The grants of the last minute that went to past events' entries.
  const backlog: Array<number> = []
  let lastGrant = -Infinity
  let lastSent = -Infinity
  let lastFinished = -Infinity
  let backoffUntil = 0
  let backoffLevel = 0

  return {
    // The service counts arrivals, which fall anywhere between our send and its answer: spacing
    // from the previous answer as well as from the previous send keeps a slow first request from
    // arriving too close to the next one.
    nextSlotAt: (): number => Math.max(lastGrant + intervalMs, lastSent + intervalMs, lastFinished + intervalMs, backoffUntil),
    granted: (now: number, toBacklog = false): void => {
      lastGrant = now
      sent.push(now)
      if (toBacklog) backlog.push(now)
      for (const times of [sent, backlog]) while (times.length > 0 && times[0]! < now - 60_000) times.shift()
    },
    sending: Effect.map(Clock.currentTimeMillis, (now) => {
      lastSent = Math.max(lastSent, now)
    }),
    finished: Effect.map(Clock.currentTimeMillis, (now) => {
      lastFinished = Math.max(lastFinished, now)
    }),
    /** A 429: every request pauses, longer at each one in a row, jittered ±20 %; returns the pause (ms). */
    rateLimited: Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const jitter = 0.8 + 0.4 * (yield* Random.next)
      const pauseMs = Math.min(backoffCapMs, backoffBaseMs * 2 ** backoffLevel) * jitter
      backoffLevel = Math.min(backoffLevel + 1, 10)
      backoffUntil = Math.max(backoffUntil, now + pauseMs)
      return Math.round(pauseMs)
    }),
    /** The service accepted a request: the next 429 pauses as briefly as the first. */
    succeeded: Effect.sync(() => {
      backoffLevel = 0
    }),
    sentSince: (since: number): number => sent.filter((t) => t >= since).length,
    backlogSince: (since: number): number => backlog.filter((t) => t >= since).length,
    backoffUntil: (now: number): number | null => (backoffUntil > now ? backoffUntil : null)
  }
}
