import { Result } from "effect"
import type { TeamOverlay } from "../config/clicks.ts"
import type { Place } from "../config/place.ts"
import type { LiveFields } from "./live-values.ts"

export type PreviewTeam = "home" | "away"

const listed = (names: ReadonlyArray<string>): string => (names.length === 0 ? "none" : names.join(", "))

/** The team's configured overlay, or what to tell the operator: which places or team overlays do exist. */
export const teamOverlayIn = (
  places: ReadonlyArray<Place>,
  placeKey: string,
  team: PreviewTeam
): Result.Result<TeamOverlay, string> => {
  const index = places.findIndex((place) => place.key === placeKey)
  const place = places[index]
  if (place === undefined) {
    return Result.fail(`place "${placeKey}" is not in the config; places: ${listed(places.map((p) => p.key))}`)
  }
  const overlay = place.teams?.[team]?.overlay
  if (overlay !== undefined) return Result.succeed(overlay)
  const withOverlay = (["home", "away"] as const).filter((t) => place.teams?.[t]?.overlay !== undefined)
  return Result.fail(
    `place "${placeKey}" has no overlay for the ${team} team (add places[${index}].teams.${team}.overlay); ` +
      `teams with an overlay: ${listed(withOverlay)}`
  )
}

/** Stand-ins for the live values of a real click: what the operator asked for, else plain defaults. */
export interface PreviewSample {
  readonly homeTeam?: string | undefined
  readonly awayTeam?: string | undefined
  readonly homeScore?: number | undefined
  readonly awayScore?: number | undefined
  readonly period?: number | undefined
}

export const sampleLiveFields = (team: PreviewTeam, sample: PreviewSample): LiveFields => {
  const homeTeam = sample.homeTeam ?? "Home"
  const awayTeam = sample.awayTeam ?? "Away"
  const homeScore = sample.homeScore ?? 0
  const awayScore = sample.awayScore ?? 0
  return {
    homeTeam,
    awayTeam,
    homeScore,
    awayScore,
    period: sample.period ?? 1,
    team: team === "home" ? homeTeam : awayTeam,
    teamScore: team === "home" ? homeScore : awayScore
  }
}
