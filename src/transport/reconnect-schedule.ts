import { Schedule } from "effect"

/**
 * How a dropped device link (a serial adapter, a pty) is retried: forever, starting at 250 ms
 * and doubling. The cap is 1.5 s before jitter (±20 %), so no wait exceeds 1.8 s: a replugged
 * adapter must be read again within 2 s, and the open itself needs some of that time.
 * Jitter keeps several ports that dropped together (a shared USB hub) from retrying in lockstep.
 * Restart a fresh step function after every successful open, so a link that worked resumes quickly.
 */
export const reconnectSchedule = Schedule.min([
  Schedule.exponential("250 millis"),
  Schedule.spaced("1500 millis")
]).pipe(Schedule.jittered)
