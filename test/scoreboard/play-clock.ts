import { sleep } from "../support/sleep.ts"

/**
 * The time a console model plays on: the wall clock over a pty to a real daemon, or Effect's
 * virtual clock against the score pipeline in-process (test/scoring/virtual-line.ts), where a
 * scene's timing and stamps are exact to the millisecond.
 */
export interface PlayClock {
  readonly now: () => number
  readonly sleep: (ms: number) => Promise<void>
}

export const wallClock: PlayClock = { now: () => Date.now(), sleep }
