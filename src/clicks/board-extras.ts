import { Context, Effect, Layer } from "effect"
import type { Penalty, Reading } from "../domain/reading.ts"

/** What a board shows beside the score: penalties, team fouls, time-outs. Never part of a score. */
export type BoardExtras = Pick<Reading, "penalties" | "teamFouls" | "timeouts">

const extrasIn = (reading: Reading): BoardExtras => ({
  ...(reading.penalties === undefined ? {} : { penalties: reading.penalties }),
  ...(reading.teamFouls === undefined ? {} : { teamFouls: reading.teamFouls }),
  ...(reading.timeouts === undefined ? {} : { timeouts: reading.timeouts })
})

/**
 * The latest extras each place's board showed, for the live values of a click's overlay. Kept per
 * field: consoles send them in some frames only (a Fair-Play clock packet carries no penalties),
 * and a frame without a field says nothing about it.
 */
export class LatestBoard extends Context.Service<LatestBoard, {
  record(place: string, reading: Reading): Effect.Effect<void>
  current(place: string): Effect.Effect<BoardExtras>
}>()("scorebridge/clicks/LatestBoard") {
  static readonly layer = Layer.sync(LatestBoard, () => {
    const latest = new Map<string, BoardExtras>()
    return LatestBoard.of({
      record: (place, reading) =>
        Effect.sync(() => {
          const extras = extrasIn(reading)
          if (Object.keys(extras).length > 0) latest.set(place, { ...latest.get(place), ...extras })
        }),
      current: (place) => Effect.sync(() => latest.get(place) ?? {})
    })
  })
}

/** A team's running penalties as a line of text for an overlay: "#12 1:00, #7 0:45" (no number: the time alone). */
export const penaltiesText = (penalties: ReadonlyArray<Penalty>): string =>
  penalties.map((penalty) => penalty.player === undefined ? penalty.remaining : `#${penalty.player} ${penalty.remaining}`).join(", ")
