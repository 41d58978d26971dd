import { emptyStats } from "../../adapters/decoder.ts"
import type { BridgeEvent } from "../../src/bus/bridge-events.ts"
import type { ClickBody } from "../../src/delivery/item-payloads.ts"
import { type Finish, finishFacts, type LaneBoard } from "../../src/domain/race.ts"

/**
 * A pool's bridge events as the daemon publishes them (the colorado-cts decoder's readings, the
 * race tracker's Finish events) and the click a `finish` rule makes, written by hand: the status
 * page and its model are tested on these, whatever the tracker and the rule do.
 */

/** A swimming reading at `receivedAt`: the whole board, the clock as shown ("0.0" reset, absent blank). */
export const raceReading = (place: string, receivedAt: number, board: {
  readonly clock?: string
  readonly clockMs?: number
  readonly event?: number
  readonly heat?: number
  readonly lanes?: ReadonlyArray<LaneBoard>
  readonly blanked?: boolean
}): BridgeEvent => ({
  _tag: "Reading",
  place,
  reading: {
    receivedAt,
    ...(board.clock === undefined ? {} : { clock: board.clock }),
    race: {
      clockReset: board.clock === "0.0",
      ...(board.clockMs === undefined ? {} : { clockMs: board.clockMs }),
      ...(board.event === undefined ? {} : { event: board.event }),
      ...(board.heat === undefined ? {} : { heat: board.heat }),
      lanes: board.lanes ?? [],
      ...(board.blanked === undefined ? {} : { blanked: board.blanked })
    }
  },
  stats: { ...emptyStats(), frames: 1 }
})

/** A finish of the race started at `startAt`: the touch is the start plus the time. */
export const finish = (lane: number, place: number, time: string, timeMs: number, startAt: number, race: { event?: number; heat?: number } = { event: 12, heat: 3 }): Finish => ({
  lane,
  place,
  time,
  timeMs,
  ...race,
  at: startAt + timeMs
})

export const finishEvent = (place: string, f: Finish, clickItemId?: number): BridgeEvent =>
  ({ _tag: "Finish", place, finish: f, ...(clickItemId === undefined ? {} : { clickItemId }) })

/** The click a `finish` rule makes of a finish: stamped at the touch, no team, the finish in its metadata. */
export const finishClick = (f: Finish, windowMs = { before: 10_000, after: 6_000 }): ClickBody => {
  // A field the bridge may not know yet (metadata.finish): the outbox keeps it as it is.
  const metadata = { clickId: `finish-${f.lane}-${f.at}`, team: "none" as const, source: "auto", rule: "finish", finish: finishFacts(f) }
  return { timeStamp: f.at, startTime: f.at - windowMs.before, endTime: f.at + windowMs.after, metadata }
}
