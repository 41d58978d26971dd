import { bridgeVersion } from "../domain/version.ts"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { checkOverlay } from "../clicks/overlay-rules.ts"
import { overlayForClick } from "../clicks/overlay-for-click.ts"
import { overlayCarriers, sampleLiveFields, teamOverlayIn } from "../clicks/overlay-preview.ts"
import { fetchTemplate, readTemplateFile } from "../config/overlay-template.ts"
import { checkTemplate, templateNotes } from "../config/template-rules.ts"
import type { TeamOverlay } from "../config/clicks.ts"
import { loadConfig } from "../config/load.ts"
import { resolveSecret } from "../config/secrets.ts"
import type { Overlay } from "../service/schemas.ts"
import { ServiceClient } from "../service/client.ts"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"
import { withPrintableConsole } from "./printable.ts"

// Why the preview was not made is a CommissioningFailure with its exit code: 78 config, 2 asked for
// something not configured or an overlay that breaks the rules, 1 the service failed. Its message
// never holds the token.
const exitService = 1

const failWith = (exitCode: number) => (error: { readonly message: string }) =>
  new CommissioningFailure({ message: error.message, exitCode })

/** Template rule problems, or nothing when the template could not be had from its URL (said on stderr). */
const templateProblems = Effect.fn("templateProblems")(function*(teamOverlay: TeamOverlay, overlay: Overlay) {
  if (overlay.templateSource === undefined) return []
  const values = overlay.values ?? {}
  const html = teamOverlay.templateFile !== undefined
    ? yield* readTemplateFile(teamOverlay.templateFile).pipe(
      Effect.mapError((e) => new CommissioningFailure({ message: `templateFile ${e.message}`, exitCode: exitUsage }))
    )
    : yield* fetchTemplate(overlay.templateSource).pipe(
      Effect.tapError((e) => Console.error(`Template not checked: could not download ${e.message}. Continuing: the service will render what it gets.`)),
      Effect.option,
      Effect.map(Option.getOrUndefined)
    )
  if (html === undefined) return []
  for (const note of templateNotes(html, values)) yield* Console.error(`Note: ${note}`)
  return checkTemplate(html, values)
})

const run = Effect.fn("overlayPreview")(function*(input: {
  readonly config: string
  readonly place: string
  readonly team: "home" | "away"
  readonly sourceUrl: Option.Option<string>
  readonly homeTeam: Option.Option<string>
  readonly awayTeam: Option.Option<string>
  readonly homeScore: Option.Option<number>
  readonly awayScore: Option.Option<number>
  readonly period: Option.Option<number>
}) {
  const config = yield* loadConfig(input.config).pipe(Effect.mapError(failWith(exitConfigError)))
  const token = yield* resolveSecret(config.service.token, "service.token").pipe(Effect.mapError(failWith(exitConfigError)))
  const teamOverlay = yield* Effect.fromResult(teamOverlayIn(config.places, input.place, input.team)).pipe(
    Effect.mapError((message) => new CommissioningFailure({ message, exitCode: exitUsage }))
  )
  for (const line of overlayCarriers(config.places, input.place, input.team)) yield* Console.log(line)
  const overlay = overlayForClick(teamOverlay, sampleLiveFields(input.team, {
    homeTeam: Option.getOrUndefined(input.homeTeam),
    awayTeam: Option.getOrUndefined(input.awayTeam),
    homeScore: Option.getOrUndefined(input.homeScore),
    awayScore: Option.getOrUndefined(input.awayScore),
    period: Option.getOrUndefined(input.period)
  }))
  const problems = [...checkOverlay(overlay), ...yield* templateProblems(teamOverlay, overlay)]
  if (problems.length > 0) {
    return yield* new CommissioningFailure({
      message: [`The ${input.team} overlay of place "${input.place}" breaks the service's rules; nothing was sent:`, ...problems.map((p) => `  - ${p}`)].join("\n"),
      exitCode: exitUsage
    })
  }
  yield* Console.error("Requesting the preview: generation takes about 30 s (up to a minute on the first call)…")
  const { videoURL } = yield* ServiceClient.use((client) => client.overlayPreview([overlay], Option.getOrUndefined(input.sourceUrl))).pipe(
    Effect.provide(ServiceClient.layer({ baseUrl: config.service.baseUrl, token, timeoutMs: config.service.timeoutMs })),
    Effect.mapError((e) => new CommissioningFailure({ message: e.message, exitCode: e._tag === "InvalidBaseUrl" ? exitConfigError : exitService }))
  )
  yield* Console.log(`Preview video: ${videoURL}`)
  yield* Console.log("It is available for 1 hour.")
})

const optionalText = (name: string, description: string) => Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)
const optionalInt = (name: string, description: string) => Flag.Int(name).pipe(Flag.withDescription(description), Flag.optional)

/** `scorebridge overlay-preview`: checks a team's overlay as a click would send it, then has the service render a preview video. */
export const overlayPreviewCommand = Command.make(
  "overlay-preview",
  {
    config: configFlag,
    place: Flag.String("place").pipe(Flag.withDescription("Key of the configured place")),
    team: Flag.Literals("team", ["home", "away"]).pipe(Flag.withDescription("Whose overlay: home or away")),
    sourceUrl: optionalText("source-url", "A freely downloadable MP4 to draw on (default: the service's test video)"),
    homeTeam: optionalText("home-team", "Sample {{homeTeam}} (default: Home)"),
    awayTeam: optionalText("away-team", "Sample {{awayTeam}} (default: Away)"),
    homeScore: optionalInt("home-score", "Sample {{homeScore}} (default: 0)"),
    awayScore: optionalInt("away-score", "Sample {{awayScore}} (default: 0)"),
    period: optionalInt("period", "Sample {{period}} (default: 1)")
  },
  (input) => run(input).pipe(Effect.tapError((error) => Console.error(error.message)), withPrintableConsole)
).pipe(
  Command.withDescription(
    `Check a team's overlay and have the service render it on a 15 s test video; prints the video URL. Exit ${exitConfigError} config, 2 not configured or against the rules, 1 service error`
  ),
  Command.withExamples([{
    command: "scorebridge overlay-preview --config /etc/scorebridge/config.yaml --place court-1 --team home --home-team Lions --away-team Tigers",
    description: "Preview court-1's home overlay with sample team names"
  }])
)

/** Runs `overlay-preview` with the given arguments (without the leading `overlay-preview`). */
export const runOverlayPreview = Command.runWith(overlayPreviewCommand, { version: bridgeVersion })
