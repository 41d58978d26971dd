import type { LiveField } from "../config/overlay.ts"
import type { FinishFacts } from "../domain/race.ts"
import type { Pair, ScoreEntry } from "../domain/score-entry.ts"
import { type BoardExtras, penaltiesText } from "./board-extras.ts"

/**
 * What a template value may refer to as `{{name}}` at the moment of a click
 * (`team`/`teamScore` are the clicked team's). A field the bridge does not
 * know (no team names on the event, no score entry yet) is left out and fills
 * in as an empty string.
 */
export type LiveFields = { readonly [Field in LiveField]?: number | string }

export type ClickedTeam = "home" | "away" | "none"

// Spaces inside the braces are tolerated: `{{ homeTeam }}` is an easy slip to make in YAML.
const liveField = /\{\{\s*([^{}]*?)\s*\}\}/gu

const shown = (value: number | string | undefined): string => (value === undefined ? "" : String(value))

/**
 * Replaces every `{{field}}` in the values with the live value. An unknown or
 * missing field becomes "": the overlay must never show a literal `{{…}}`.
 */
export const fillLiveValues = (
  values: Readonly<Record<string, string>>,
  live: LiveFields
): Record<string, string> => {
  const lookup = live as Readonly<Record<string, number | string | undefined>>
  const filled: Record<string, string> = {}
  for (const [name, template] of Object.entries(values)) {
    filled[name] = template.replace(liveField, (_, field: string) =>
      Object.hasOwn(lookup, field) ? shown(lookup[field]) : "")
  }
  return filled
}

interface EventTeams {
  readonly homeTeam?: string | undefined
  readonly awayTeam?: string | undefined
}

interface Score {
  readonly home?: number
  readonly away?: number
  readonly period?: number
}

const lastPair = (pairs: ReadonlyArray<Pair>): Pair | undefined => pairs[pairs.length - 1]

/**
 * The score an overlay shows, from the place's current score entry.
 * - Generic: left/right and the period; period 0 means the controller sends
 *   none, so it is left out rather than shown as "0".
 * - Tennis: the games of the current set (the last `gameScores` pair) and the
 *   set number as the period — what a courtside score bug shows next to
 *   "Set 2". Sets won stay out: `left`/`right` carry them only because the
 *   service requires the fields.
 * - Volleyball: the points of the current set and the set number.
 */
const scoreOf = (entry: ScoreEntry): Score => {
  if (!("scoreValue" in entry)) return { home: entry.left, away: entry.right, ...(entry.period > 0 ? { period: entry.period } : {}) }
  const sets = entry.scoreValue.gameScores
  const current = lastPair(sets)
  const period = "period" in entry && entry.period > 0 ? entry.period : sets.length
  return {
    ...(current === undefined ? {} : { home: current[0], away: current[1] }),
    ...(period > 0 ? { period } : {})
  }
}

const defined = <A extends object>(fields: A): A =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as A

const ofTeam = <A>(team: ClickedTeam, home: A | undefined, away: A | undefined): A | undefined =>
  team === "home" ? home : team === "away" ? away : undefined

/**
 * The live fields of a click on `team`, from the place's current entry, what its board shows
 * beside it, and the active event's team names; a finish click's also from its swimmer's finish.
 */
export const liveFieldsFor = (
  entry: ScoreEntry | undefined,
  event: EventTeams | undefined,
  team: ClickedTeam,
  board: BoardExtras = {},
  finish?: FinishFacts
): LiveFields => {
  const score = entry === undefined ? {} : scoreOf(entry)
  const homeTeam = event?.homeTeam
  const awayTeam = event?.awayTeam
  const homePenalties = board.penalties === undefined ? undefined : penaltiesText(board.penalties.home)
  const awayPenalties = board.penalties === undefined ? undefined : penaltiesText(board.penalties.away)
  const [homeFouls, awayFouls] = board.teamFouls ?? []
  const [homeTimeouts, awayTimeouts] = board.timeouts ?? []
  return defined({
    homeTeam,
    awayTeam,
    homeScore: score.home,
    awayScore: score.away,
    period: score.period,
    team: ofTeam(team, homeTeam, awayTeam),
    teamScore: ofTeam(team, score.home, score.away),
    homePenalties,
    awayPenalties,
    teamPenalties: ofTeam(team, homePenalties, awayPenalties),
    homeFouls,
    awayFouls,
    teamFouls: ofTeam(team, homeFouls, awayFouls),
    homeTimeouts,
    awayTimeouts,
    teamTimeouts: ofTeam(team, homeTimeouts, awayTimeouts),
    lane: finish?.lane,
    place: finish?.place,
    time: finish?.time,
    event: finish?.event,
    heat: finish?.heat,
    swimmer: finish?.swimmer
  })
}
