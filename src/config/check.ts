import { Effect } from "effect"
import { describeAutoRule, describeMerge } from "./auto-rule-words.ts"
import { ConfigError, readConfig, type ConfigProblem, type LoadedConfig } from "./load.ts"
import type { ProtocolCatalog } from "./protocol-options.ts"
import type { Action, Button, Config, Place } from "./schema.ts"
import { describeSecretRef, type SecretRef } from "./secret-ref.ts"
import { resolveSecret } from "./secrets.ts"
import { describeLink } from "./scoreboard-link.ts"
import { templateFileProblems } from "./template-files.ts"
import { withoutUrlPasswords } from "./urls.ts"

export type CheckResult =
  | { readonly ok: true; readonly summary: string }
  | { readonly ok: false; readonly report: string }

const secretsOf = (config: Config): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly ref: SecretRef }> => [
  { path: ["service", "token"], ref: config.service.token },
  ...(config.mqtt?.password === undefined ? [] : [{ path: ["mqtt", "password"], ref: config.mqtt.password }])
]

// A secret that cannot be read stops the daemon as surely as a typo does, so it is reported the same way.
const secretProblems = Effect.fn("secretProblems")(function*({ config, locate }: LoadedConfig) {
  const problems: Array<ConfigProblem> = []
  for (const { path, ref } of secretsOf(config)) {
    const what = path.join(".")
    yield* resolveSecret(ref, what).pipe(
      Effect.catchTag("SecretError", (error) =>
        Effect.sync(() => problems.push({ path: what, ...locate(path), message: error.reason }))
      )
    )
  }
  return problems
})

const describeSource = (place: Place): string => {
  const board = place.scoreboard
  if (board === undefined) return "no scoreboard"
  return `${board.protocol} over ${describeLink(board)}`
}

const describeButton = (button: Button): string => {
  if (button.mqtt !== undefined) return `${button.type} over MQTT ${button.mqtt.topics.join(", ")}`
  if (button.serial !== undefined) return `${button.type} over serial ${button.serial.path}`
  if (button.gpio !== undefined) return `${button.type} on ${button.gpio.chip} line(s) ${button.gpio.lines.join(", ")}`
  return `${button.type} on ${button.device ?? "?"}`
}

const describeOverlay = (place: Place, team: "home" | "away" | "none"): string => {
  const overlay = team === "none" ? place.clicks.overlay : place.teams?.[team]?.overlay
  if (overlay === undefined) return ""
  return overlay.imageSource !== undefined ? " with image overlay" : " with template overlay"
}

const describeAction = (place: Place, action: Action): string => {
  const press = `${action.source} ${action.button === undefined ? "any button" : `button ${action.button}`} ${action.gesture}`
  const effect = action.do === "undo"
    ? `undo (last highlight within ${place.clicks.undoWithinSeconds} s)`
    : `highlight ${action.team === "none" ? "(no team)" : action.team}${describeOverlay(place, action.team)}`
  return `    ${press} → ${effect}`
}

const describeClicks = (place: Place): ReadonlyArray<string> => {
  const { beforeSeconds, afterSeconds, feedbackTopic } = place.clicks
  if (place.actions === undefined || place.actions.length === 0) return []
  const window = beforeSeconds === undefined ? "the sport's default window" : `${beforeSeconds} s before to ${afterSeconds} s after the press`
  return [`    clips: ${window}${feedbackTopic === undefined ? "" : `; feedback on MQTT ${feedbackTopic}`}`]
}

// The config check has made sure a place with rules has a sport.
const describeAutoHighlights = (place: Place): ReadonlyArray<string> => {
  const { autoHighlights: rules = [], sport } = place
  if (rules.length === 0 || sport === undefined) return []
  return [
    `    auto-highlights (${describeMerge(place.clicks.mergeSeconds, rules)}):`,
    ...rules.map((rule) => `      ${describeAutoRule(rule, sport)}`)
  ]
}

const summarize = (file: string, config: Config): string => [
  `${file} is valid.`,
  `  service: ${config.service.baseUrl}, token from ${describeSecretRef(config.service.token)}, ${config.service.requestsPerSecond} request(s)/s`,
  ...(config.mqtt === undefined ? [] : [`  mqtt: ${withoutUrlPasswords(config.mqtt.url)} as ${config.mqtt.clientId}`]),
  ...(config.buttons ?? []).map((button) => `  button ${button.name}: ${describeButton(button)}`),
  ...config.places.flatMap((place) => [
    `  place ${place.key}${place.name === undefined ? "" : ` (${place.name})`}: ${place.sport ?? "sport from the service"}, ${describeSource(place)}`,
    ...(place.actions ?? []).map((action) => describeAction(place, action)),
    ...describeClicks(place),
    ...describeAutoHighlights(place)
  ]),
  `  status: http://${config.status.listen}, state in ${config.stateDirectory}, log level ${config.log.level}`
].join("\n")

/**
 * What `scorebridge check --config FILE` reports: the file decoded and
 * validated, and its secrets readable. Never fails; never prints a secret.
 */
export const checkConfig = Effect.fn("checkConfig")(function*(
  path: string,
  protocols?: ProtocolCatalog
): Effect.fn.Return<CheckResult, ConfigError> {
  const loaded = yield* readConfig(path, protocols)
  const problems = [...(yield* secretProblems(loaded)), ...(yield* templateFileProblems(loaded))]
  if (problems.length > 0) return yield* new ConfigError({ file: path, problems })
  return { ok: true, summary: summarize(path, loaded.config) }
}, Effect.catchTag("ConfigError", (error) => Effect.succeed<CheckResult>({ ok: false, report: error.message })))
