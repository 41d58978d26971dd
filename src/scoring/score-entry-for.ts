import type { Reading } from "../domain/reading.ts"
import type { GenericEntry, Pair, ScoreEntry, TennisEntry, VolleyballEntry } from "../domain/score-entry.ts"
import { sportKind } from "../domain/sport-kind.ts"
import { servicePoint } from "../domain/tennis-points.ts"

/**
 * The score entry a reading stands for, or undefined while the reading lacks
 * the fields that sport's entry needs (a console that has not sent its score
 * fields yet must not produce a 0–0 entry).
 */
export const scoreEntryFor = (sport: string, reading: Reading): ScoreEntry | undefined => {
  switch (sportKind(sport)) {
    case "tennis":
      return tennisEntry(reading)
    case "volleyball":
      return volleyballEntry(reading)
    case "generic":
      return genericEntry(reading)
  }
}

const genericEntry = (r: Reading): GenericEntry | undefined =>
  r.home === undefined || r.away === undefined
    ? undefined
    // The generic shape requires a period; 0 says the controller sends none.
    : { timeStamp: r.receivedAt, left: r.home, right: r.away, period: r.period ?? 0 }

const tennisEntry = (r: Reading): TennisEntry | undefined => {
  const tieBreak = r.tieBreak ?? false
  const shownPoints = r.gamePoints ?? (r.home !== undefined && r.away !== undefined ? [r.home, r.away] as const : undefined)
  if (shownPoints === undefined || r.sets === undefined || r.sets.length === 0) return undefined
  const home = servicePoint(shownPoints[0], tieBreak)
  const away = servicePoint(shownPoints[1], tieBreak)
  if (home === undefined || away === undefined) return undefined
  const setsWon = r.setsWon ?? countSetsWon(r.sets.slice(0, -1))
  return {
    timeStamp: r.receivedAt,
    // The service ignores left/right/period for tennis but requires them: sets won and the set number.
    left: setsWon[0],
    right: setsWon[1],
    period: r.period ?? r.sets.length,
    scoreValue: { gameScores: r.sets.map(copyPair), pointScore: [home, away] }
  }
}

const volleyballEntry = (r: Reading): VolleyballEntry | undefined => {
  const sets = r.sets?.map(copyPair) ?? []
  // Live points of the current set override that set's column: some consoles
  // update the per-set table only when the set ends.
  if (r.home !== undefined && r.away !== undefined) {
    const current = (r.period ?? Math.max(sets.length, 1)) - 1
    if (current >= 0 && current <= sets.length && current < 9) sets[current] = [r.home, r.away]
  }
  return sets.length === 0 ? undefined : { timeStamp: r.receivedAt, scoreValue: { gameScores: sets } }
}

const copyPair = (p: Pair): Pair => [p[0], p[1]]

const countSetsWon = (finished: ReadonlyArray<Pair>): Pair =>
  finished.reduce<Pair>((won, [h, a]) => h > a ? [won[0] + 1, won[1]] : a > h ? [won[0], won[1] + 1] : won, [0, 0])
