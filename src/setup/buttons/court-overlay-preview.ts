import { Result, Schema } from "effect"
import { overlayForClick } from "../../clicks/overlay-for-click.ts"
import { overlayCarriers, type PreviewTeam, sampleLiveFields, teamOverlayIn } from "../../clicks/overlay-preview.ts"
import { checkOverlay } from "../../clicks/overlay-rules.ts"
import { Place } from "../../config/place.ts"
import type { Place as PlaceConfig } from "../../config/schema.ts"
import { formatPath, issueProblems } from "../../config/problems.ts"
import type { Overlay } from "../../service/schemas.ts"
import { ok, problem, type SetupReply } from "../setup-route.ts"

const PreviewRequest = Schema.Struct({
  place: Schema.Unknown,
  /** Stand-ins for the live values, as `scorebridge overlay-preview --home-team …` takes them. */
  sample: Schema.optionalKey(Schema.Struct({
    homeTeam: Schema.optionalKey(Schema.String),
    awayTeam: Schema.optionalKey(Schema.String),
    homeScore: Schema.optionalKey(Schema.Int),
    awayScore: Schema.optionalKey(Schema.Int),
    period: Schema.optionalKey(Schema.Int)
  }))
})

const strict = { errors: "all", onExcessProperty: "error" } as const

const problemsOf = (issue: Parameters<typeof issueProblems>[0], at: ReadonlyArray<PropertyKey>) =>
  issueProblems(issue, at).map((p) => `${formatPath(p.path)}: ${p.message}`)

/** One line the page shows as it is: the filled-in values on their template, and what breaks the rules. */
const textOf = (overlay: Overlay, problems: ReadonlyArray<string>): string => {
  const values = Object.entries(overlay.values ?? {}).map(([name, value]) => `${name}: ${value === "" ? "(empty)" : value}`)
  const source = overlay.templateSource ?? overlay.imageSource
  const drawn = `${values.length === 0 ? "no values" : values.join(" · ")}${source === undefined ? "" : ` on ${source}`}`
  return problems.length === 0 ? drawn : `${drawn}. Breaks the service's rules: ${problems.join("; ")}`
}

const teamPreview = (place: PlaceConfig, team: PreviewTeam, sample: typeof PreviewRequest.Type["sample"]) => {
  const lines = overlayCarriers([place], place.key, team)
  const configured = teamOverlayIn([place], place.key, team)
  if (Result.isFailure(configured)) return { team, text: `No overlay: ${configured.failure}`, overlay: null, problems: [], lines }
  const overlay = overlayForClick(configured.success, sampleLiveFields(team, sample ?? {}))
  const problems = checkOverlay(overlay)
  return { team, text: textOf(overlay, problems), overlay, problems, lines }
}

/** What the page sends to `POST /api/overlay-preview`. */
export type OverlayPreviewBody = typeof PreviewRequest.Encoded
/** `POST /api/overlay-preview`'s answer: each team's overlay as a click would send it. */
export interface OverlayPreviewAnswer {
  readonly place: string
  readonly teams: ReadonlyArray<ReturnType<typeof teamPreview>>
}

/**
 * What `scorebridge overlay-preview` checks and prints for each team of a place the page is
 * editing (not yet saved): the overlay a click would send with sample values, the service's rules
 * it breaks, and which presses and auto-highlights carry it. The video itself stays the command's.
 */
export const courtOverlayPreview = (body: unknown): SetupReply => {
  const request = Schema.decodeUnknownResult(PreviewRequest)(body, strict)
  if (Result.isFailure(request)) return problem(400, `expected { place, sample? }: ${problemsOf(request.failure.issue, []).join("; ")}`)
  const place = Schema.decodeUnknownResult(Place)(request.success.place, strict)
  if (Result.isFailure(place)) return problem(422, `the place does not load: ${problemsOf(place.failure.issue, ["place"]).join("; ")}`)
  const teams = (["home", "away"] as const).map((team) => teamPreview(place.success, team, request.success.sample))
  return ok({ place: place.success.key, teams } satisfies OverlayPreviewAnswer)
}
