import type { Reading, Side } from "../domain/reading.ts"
import type { Pair, ScoreEntry } from "../domain/score-entry.ts"
import { servicePoint } from "../domain/tennis-points.ts"
import { ruleFamily } from "../domain/rule-catalog.ts"

/**
 * A settled score as the auto-highlight rules read it, whatever the sport's entry shape.
 * `home`/`away` is the score the any-sport rules follow: the teams' scores (generic), the
 * current set's points (volleyball), the current set's games (tennis, padel).
 */
export interface ScoreState {
  readonly at: number
  readonly home: number
  readonly away: number
  readonly period: number
  /** Set sports: games (tennis, padel) or points (volleyball) of each set so far, the current one last. */
  readonly sets?: ReadonlyArray<Pair>
  /** Tennis, padel: points of the current game (0, 1, 2, 3, 4 = AD; plain counts in a tie-break). */
  readonly points?: Pair
  readonly tieBreak?: boolean
  /** Who serves, where the board shows it. */
  readonly serve?: Side
}

const pair = (p: Pair): Pair => [p[0], p[1]]

/**
 * The state an entry stands for, with what only its reading knows (who serves, the tie-break
 * flag, and for padel — whose entries are generic — the sets and points). Without a reading
 * (the last entry remembered across a restart) those parts are unknown.
 */
export const scoreStateOf = (sport: string, entry: ScoreEntry, reading?: Reading): ScoreState => {
  const serve = reading?.serve === undefined ? {} : { serve: reading.serve }
  const family = ruleFamily(sport)
  if ("scoreValue" in entry) {
    const sets = entry.scoreValue.gameScores.map(pair)
    const current = sets.at(-1) ?? [0, 0]
    if ("pointScore" in entry.scoreValue && "period" in entry) {
      return {
        at: entry.timeStamp, home: current[0], away: current[1], period: entry.period, sets,
        points: pair(entry.scoreValue.pointScore), tieBreak: reading?.tieBreak ?? false, ...serve
      }
    }
    return { at: entry.timeStamp, home: current[0], away: current[1], period: sets.length, sets, ...serve }
  }
  const generic = entry as { readonly timeStamp: number; readonly left: number; readonly right: number; readonly period: number }
  if (family === "tennis" && reading?.sets !== undefined && reading.sets.length > 0 && reading.gamePoints !== undefined) {
    // Padel: the entry is generic, the board still shows sets, games and points.
    const tieBreak = reading.tieBreak ?? false
    const home = servicePoint(reading.gamePoints[0], tieBreak)
    const away = servicePoint(reading.gamePoints[1], tieBreak)
    const sets = reading.sets.map(pair)
    const current = sets.at(-1)!
    return {
      at: generic.timeStamp, home: current[0], away: current[1], period: reading.period ?? sets.length, sets,
      ...(home === undefined || away === undefined ? {} : { points: [home, away] as Pair }), tieBreak, ...serve
    }
  }
  return { at: generic.timeStamp, home: generic.left, away: generic.right, period: generic.period, ...serve }
}
