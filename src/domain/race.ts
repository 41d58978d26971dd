/**
 * A race as a timing console's board shows it (swimming): the running clock, the event and heat,
 * and each lane's module. Decoders that read a timing console (adapters/colorado-cts) put a
 * `RaceBoard` in their readings; the race tracker (src/highlights/race-finishes.ts) turns the
 * boards it is shown into a race: its start, and each lane's finish.
 */

/** One lane's module, as confirmed by the console (shown alike in two packets in a row). */
export interface LaneBoard {
  readonly lane: number
  /**
   * `running`: the module shows the running clock (the lane is swimming); `stopped`: it shows a
   * time of its own (a finish when a place is shown, a split when not); `blank`: nothing but
   * perhaps the lane number (a lane switched off, or the board blanked).
   */
  readonly state: "running" | "stopped" | "blank"
  /** Stopped with a place: 1 = the winner. Absent: no place shown (a split, or a provisional time). */
  readonly place?: number
  /** Stopped: the time as the board shows it ("28.91", "1:02.34"). */
  readonly time?: string
  /** Stopped: the same time in ms (hundredths × 10). */
  readonly timeMs?: number
}

export interface RaceBoard {
  /** The running clock's elapsed time as shown, in ms; absent while the clock module is blank. */
  readonly clockMs?: number
  /** The clock shows its reset state ("0.0"): before the start, or after the operator reset it. */
  readonly clockReset: boolean
  /** The event and heat the board shows now (the operator may advance them before the next start). */
  readonly event?: number
  readonly heat?: number
  /** The lane modules confirmed so far, by lane number. */
  readonly lanes: ReadonlyArray<LaneBoard>
  /** The console's "blank" mode: lanes and results sent blank while the clock runs on. */
  readonly blanked?: boolean
}

/** One swimmer's finish, as the race tracker reports it once the console has settled it. */
export interface Finish {
  readonly lane: number
  readonly place: number
  /** As the board shows it: "28.91", "1:02.34". */
  readonly time: string
  readonly timeMs: number
  /** The event and heat the board showed at the race's start (absent when the board showed none). */
  readonly event?: number
  readonly heat?: number
  /** The swimmer's name, when a protocol gives it (none does yet). */
  readonly swimmer?: string
  /** The touch: the race's start plus the finish time (ms since epoch), not the packet's arrival. */
  readonly at: number
}

/** A finish as a click's metadata and `replay` carry it. */
export interface FinishFacts {
  readonly lane: number
  readonly place: number
  readonly time: string
  readonly event?: number
  readonly heat?: number
  readonly swimmer?: string
}

export const finishFacts = (finish: Finish): FinishFacts => ({
  lane: finish.lane,
  place: finish.place,
  time: finish.time,
  ...(finish.event === undefined ? {} : { event: finish.event }),
  ...(finish.heat === undefined ? {} : { heat: finish.heat }),
  ...(finish.swimmer === undefined ? {} : { swimmer: finish.swimmer })
})
