import type { Finish, FinishFacts } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"

/** Where the race stands, for the status page. */
export interface RaceState {
  /** `waiting`: no race seen running yet (or the clock reset); `running`: the clock counts; */
  readonly phase: "waiting" | "running"
  /** The race's start (ms since epoch), as estimated from the running clock; absent while waiting. */
  readonly startedAt?: number
  /** The event and heat the board showed at the start (or now, while waiting). */
  readonly event?: number
  readonly heat?: number
  /** This race's finishes so far (the last race's while waiting), by place. */
  readonly finishes: ReadonlyArray<Finish>
}

/** A finish made before a restart (from the outbox): the same swimmer is not reported again. */
export type MadeFinish = FinishFacts & { readonly at: number }

/**
 * Turns the race boards of one place's readings into a race: its start, the event/heat of that
 * start, and each lane's finish once settled — never the previous race's results, a split, a lane
 * coming back after dropping out, or a blanked board. Pure; the daemon and `replay` use it alike.
 * SKELETON: the contract of docs in /tmp/brief/contract.md; filled in by its helper.
 */
export class RaceFinishes {
  constructor(_options: { readonly made?: ReadonlyArray<MadeFinish> } = {}) {}

  /** A reading of the place's board: the finishes it settles (usually none). */
  onReading(_reading: Reading): ReadonlyArray<Finish> {
    return []
  }

  get state(): RaceState {
    return { phase: "waiting", finishes: [] }
  }
}
