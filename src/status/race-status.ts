import type { RaceBoard } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"
import { raceStartOf, racesOf } from "../timeline/finish-races.ts"
import type { FinishSeen } from "./finish-log.ts"
import type { Answer } from "./item-answer.ts"
import type { FinishStatus, LastClick, RaceStatus } from "./status-snapshot.ts"

/** Finishes on the card: a race of 8 lanes, whole. */
export const finishesShown = 8

const byPlace = (a: FinishSeen, b: FinishSeen) => a.finish.place - b.finish.place || a.finish.lane - b.finish.lane

/**
 * The finishes the card lists, each with its race's number on the card (0: the newest): the
 * newest race first, each race by place. A results list, as the board and the meet's sheets read:
 * the winner on top even when a later lane's settle arrives first, and a 10-lane race keeps its
 * podium when only 8 fit; the race before stays below, under its own event and heat.
 */
export const lastFinishes = (seen: ReadonlyArray<FinishSeen>): Array<FinishSeen & { readonly race: number }> => {
  const races = racesOf(seen, (s) => s.finish)
  races.sort((a, b) => raceStartOf(b[0]!.finish) - raceStartOf(a[0]!.finish))
  return races.flatMap((race, i) => [...race].sort(byPlace).map((s) => ({ ...s, race: i }))).slice(0, finishesShown)
}

/** What the outbox says of a finish's click: the service's answer, and its clip when followed. */
export interface FinishClick {
  readonly answer: Answer | null
  readonly clip: LastClick | null
}

const phaseOf = (race: RaceBoard): RaceStatus["phase"] =>
  race.clockReset ? "waiting" : race.clockMs !== undefined ? "running" : "blank"

const finishStatus = (s: FinishSeen & { readonly race: number }, clicks: ReadonlyMap<number, FinishClick>): FinishStatus => {
  const { finish } = s
  const click = s.clickItemId === null ? undefined : clicks.get(s.clickItemId)
  return {
    lane: finish.lane,
    place: finish.place,
    time: finish.time,
    timeMs: finish.timeMs,
    event: finish.event ?? null,
    heat: finish.heat ?? null,
    swimmer: finish.swimmer ?? null,
    at: finish.at,
    race: s.race,
    clickItemId: s.clickItemId,
    answer: click?.answer ?? null,
    clip: click?.clip ?? null
  }
}

/**
 * The race block of a place's card: the board's event, heat, clock and phase from the last
 * reading, and the last finishes; null unless that reading carries a race. After a restart, until
 * the board's first reading, the finishes rebuilt from the outbox are shown under `unread`.
 */
export const raceStatus = (
  reading: Reading | null,
  seen: ReadonlyArray<FinishSeen>,
  clicks: ReadonlyMap<number, FinishClick>
): RaceStatus | null => {
  const race = reading?.race
  const finishes = lastFinishes(seen).map((s) => finishStatus(s, clicks))
  if (race === undefined) {
    return reading === null && finishes.length > 0
      ? { event: null, heat: null, clock: null, phase: "unread", blanked: false, finishes }
      : null
  }
  return {
    event: race.event ?? null,
    heat: race.heat ?? null,
    clock: reading?.clock ?? null,
    phase: phaseOf(race),
    blanked: race.blanked === true,
    finishes
  }
}
