import type { Pair } from "../domain/score-entry.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { defaultBestOf, defaultDecidingSetPoints, defaultGamesPerSet, defaultPointsPerSet, type RuleFamily, ruleFamily } from "../domain/rule-catalog.ts"

/**
 * When a set and a match are won: tennis and padel count games (a tie-break at games-all),
 * volleyball counts points (the deciding set shorter). Standard formats by default; a rule
 * may give its own (best of five, pro sets, beach volleyball to 21).
 */
export interface MatchFormat {
  readonly family: RuleFamily
  readonly bestOf: number
  readonly gamesPerSet: number
  readonly pointsPerSet: number
  readonly decidingSetPoints: number
}

export const matchFormatOf = (sport: string, rule?: AutoRule): MatchFormat => ({
  family: ruleFamily(sport),
  bestOf: rule?.bestOf ?? defaultBestOf(sport),
  gamesPerSet: rule?.gamesPerSet ?? defaultGamesPerSet,
  pointsPerSet: rule?.pointsPerSet ?? defaultPointsPerSet(sport),
  decidingSetPoints: rule?.decidingSetPoints ?? defaultDecidingSetPoints
})

export type Team = 0 | 1

const setsToWin = (format: MatchFormat): number => Math.ceil(format.bestOf / 2)

/** Points (volleyball) or games (tennis) that win set number `index` (0-based), by two. */
const target = (format: MatchFormat, index: number): number =>
  format.family === "volleyball"
    ? index === format.bestOf - 1 ? format.decidingSetPoints : format.pointsPerSet
    : format.gamesPerSet

/** The winner of a finished set, or undefined while it is still being played. */
export const setWinner = (format: MatchFormat, set: Pair, index: number): Team | undefined => {
  const goal = target(format, index)
  for (const team of [0, 1] as const) {
    const mine = set[team]
    const theirs = set[1 - team]!
    if (mine >= goal && mine - theirs >= 2) return team
    // Tennis: a tie-break at games-all is won 7–6.
    if (format.family === "tennis" && mine === goal + 1 && theirs === goal) return team
  }
  return undefined
}

/** Sets each team has won among `sets`, judged by the format. */
export const setsWon = (format: MatchFormat, sets: ReadonlyArray<Pair>): Pair => {
  const won: [number, number] = [0, 0]
  sets.forEach((set, index) => {
    const winner = setWinner(format, set, index)
    if (winner !== undefined) won[winner]++
  })
  return won
}

/** Tennis: the current set is at games-all, or the board says tie-break. */
export const inTieBreak = (format: MatchFormat, set: Pair, flagged: boolean | undefined): boolean =>
  flagged === true || (set[0] === format.gamesPerSet && set[1] === format.gamesPerSet)

/**
 * Whether `team` wins the current set with the next point. Volleyball: its set points. Tennis:
 * a game point (40 against less, or advantage; in a tie-break 6+ and ahead) in a game that
 * would win the set.
 */
export const hasSetPoint = (
  format: MatchFormat,
  sets: ReadonlyArray<Pair>,
  points: Pair | undefined,
  tieBreak: boolean | undefined,
  team: Team
): boolean => {
  const index = sets.length - 1
  const set = sets[index]
  if (set === undefined || setWinner(format, set, index) !== undefined) return false
  const other = (1 - team) as Team
  if (format.family === "volleyball") {
    const after: Pair = team === 0 ? [set[0] + 1, set[1]] : [set[0], set[1] + 1]
    return setWinner(format, after, index) === team
  }
  if (points === undefined) return false
  if (inTieBreak(format, set, tieBreak)) return points[team] + 1 >= 7 && points[team] + 1 - points[other] >= 2
  const gamePoint = points[team] >= 3 && points[team] > points[other]
  const afterGame: Pair = team === 0 ? [set[0] + 1, set[1]] : [set[0], set[1] + 1]
  return gamePoint && setWinner(format, afterGame, index) === team
}

/** A set point in the set that would win the match. */
export const hasMatchPoint = (
  format: MatchFormat,
  sets: ReadonlyArray<Pair>,
  points: Pair | undefined,
  tieBreak: boolean | undefined,
  team: Team
): boolean =>
  hasSetPoint(format, sets, points, tieBreak, team) && setsWon(format, sets.slice(0, -1))[team] + 1 === setsToWin(format)
