import { Schedule } from "effect"

/**
 * Transient failures (5xx, network, timeouts): exponential from 1 s, capped at
 * 60 s, jittered so that courts recovering from the same outage spread out.
 * Unbounded: an entry is never dropped for being patient.
 */
export const transientRetry = Schedule.min([
  Schedule.exponential("1 second"),
  Schedule.spaced("60 seconds")
]).pipe(Schedule.jittered)

/**
 * While a 401 holds delivery, how often the token is tried again: soon at
 * first (a technician who just fixed the token sees delivery resume), then
 * every 30 s so a revoked token costs the shared budget next to nothing.
 */
export const unauthorizedProbe = Schedule.min([
  Schedule.exponential("1 second"),
  Schedule.spaced("30 seconds")
])
