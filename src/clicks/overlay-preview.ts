import { Result } from "effect"
import { isTeamless, ruleLabel } from "../config/auto-rule-words.ts"
import { describePress } from "../config/button-rules.ts"
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

/**
 * Which of the place's highlights the team's overlay goes on, and which go without it: presses
 * by their action's team, auto-highlights by the team they are about (their filter, or the
 * scoring side), as the click builder does; those about no team carry the place's clicks.overlay
 * when it has one. Empty for an unknown place.
 */
export const overlayCarriers = (places: ReadonlyArray<Place>, placeKey: string, team: PreviewTeam): ReadonlyArray<string> => {
  const place = places.find((p) => p.key === placeKey)
  if (place === undefined) return []
  const presses = (place.actions ?? []).flatMap((action) => (action.do === "highlight" ? [action] : []))
  const rules = place.autoHighlights ?? []
  const carrying = [
    ...presses.filter((press) => press.team === team).map((press) => `press ${describePress(press)}`),
    ...rules.filter((rule) => !isTeamless(rule) && (rule.team ?? team) === team).map((rule) =>
      `auto-highlight ${ruleLabel(rule)}${rule.team === undefined ? `, when it is about ${team}` : ` (${team} only)`}`
    )
  ]
  const bare = [
    ...presses.filter((press) => press.team === "none").map((press) => `press ${describePress(press)} (team none)`),
    ...rules.filter(isTeamless).map((rule) => `auto-highlight ${ruleLabel(rule)} (about no team)`)
  ]
  return [
    ...(carrying.length === 0
      ? [`No press or auto-highlight at ${placeKey} is for the ${team} team yet.`]
      : [`At ${placeKey} the ${team} overlay goes on:`, ...carrying.map((line) => `  ${line}`)]),
    ...(bare.length === 0
      ? []
      : [place.clicks.overlay === undefined ? `Without an overlay at ${placeKey}:` : `With ${placeKey}'s clicks.overlay instead:`, ...bare.map((line) => `  ${line}`)])
  ]
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
