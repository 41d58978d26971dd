import { Schedule } from "effect"

/**
 * The wait after an item's n-th transient failure in a row (5xx, network, timeouts; n from 0):
 * exponential from 1 s up to `capMs`, jittered ±20 % so that courts recovering from the same
 * outage spread out. Unbounded: an entry is never dropped for being patient. A plain function
 * rather than a Schedule: the cap is chosen again at every step (see back-off.ts), and the wait
 * can end early when the service answers again.
 */
export const transientStepMs = (failures: number, capMs: number, random: number): number =>
  Math.min(capMs, 1_000 * 2 ** Math.min(failures, 16)) * (0.8 + 0.4 * random)

/** Scores, undos, and clicks whose footage is gone or that fail while the service answers others. */
export const transientCapMs = 60_000

/**
 * A click whose footage is still kept, failing while the service answers nobody: it is asked
 * again this often, so the service's first moment back is found within a couple of seconds
 * (its success then ends every other back-off). Bounded by the shared rate budget, and only
 * during an outage, when every other request fails too and loses nothing by waiting.
 */
export const perishableCapMs = 2_000

/**
 * While a 401 holds delivery, how often the token is tried again: soon at
 * first (a technician who just fixed the token sees delivery resume), then
 * every 30 s so a revoked token costs the shared budget next to nothing.
 */
export const unauthorizedProbe = Schedule.min([
  Schedule.exponential("1 second"),
  Schedule.spaced("30 seconds")
])
