import { hostname } from "node:os"
import { Effect, Schema } from "effect"
import { buttonRules } from "./button-rules.ts"
import { Button } from "./buttons.ts"
import { Place } from "./place.ts"
import { secretRef } from "./secret-ref.ts"
import { hostPort } from "./host-port.ts"
import { listenRules } from "./listen-rules.ts"
import { isName } from "./names.ts"
import { httpsProblem, urlCharactersProblem } from "./urls.ts"
import { Upgrades } from "./upgrades.ts"

const BaseUrl = Schema.String.check(
  Schema.makeFilter(
    // The token travels in a header: plain HTTP only where it cannot leave the machine.
    (text: string) => httpsProblem(text, "https://api.example.com", "the token must not travel in clear text"),
    { toJsonSchema: () => ({ pattern: "^https?://" }) }
  )
).annotate({ description: "Base address of the Event Highlights Service. https:// (http:// only for a loopback simulator)." })

const Service = Schema.Struct({
  baseUrl: BaseUrl,
  token: secretRef("API token (a full credential)"),
  companyKey: Schema.optionalKey(Schema.String.check(isName(256)).annotate({
    description: "Organization key: used to look up the places' sports and by `scorebridge doctor`."
  })),
  requestsPerSecond: Schema.Finite.check(Schema.isBetween({ minimum: 0.01, maximum: 100 })).annotate({
    description: "The service's request limit for this token, shared by all places.",
    default: 1
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(1))),
  timeoutMs: Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 300_000 })).annotate({
    description: "Timeout of one request to the service, in ms.",
    default: 10_000
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(10_000))),
  liveScoreOrder: Schema.Literals(["latest-first", "captured"]).annotate({
    description: "After an outage, the order a live event's waiting score entries leave in: latest-first (while a court catches up, its oldest waiting entry over 10 s old: its current score first, then the rest oldest first; the service places entries by their timeStamp) or captured (oldest first). Past events' entries always go oldest first, after everything live.",
    default: "latest-first"
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("latest-first" as const)))
}).annotate({ description: "The Event Highlights Service and how to reach it." })

const Listen = hostPort("127.0.0.1:8370")

const Mqtt = Schema.Struct({
  url: Schema.String.check(
    Schema.makeFilter((text: string) => urlCharactersProblem(text)),
    Schema.isPattern(/^mqtts?:\/\/[^/\s]+/u, { message: "must be mqtt://host:port or mqtts://host:port" })
  ).annotate({ description: "Broker address: mqtt:// or mqtts:// (TLS)." }),
  clientId: Schema.String.check(
    Schema.isPattern(/^[A-Za-z0-9_.-]{1,64}$/u, { message: "must be 1–64 letters, digits, _ . or -" })
  ).annotate({
    description: "MQTT client id; default scorebridge-<hostname>. Keep it stable: the broker keeps the persistent session (QoS 1 backlog) under it."
  }).pipe(Schema.withDecodingDefaultKey(Effect.sync(() => `scorebridge-${hostname()}`.replace(/[^A-Za-z0-9_.-]/gu, "-").slice(0, 64)))),
  username: Schema.optionalKey(Schema.NonEmptyString.annotate({ description: "Broker user name." })),
  password: Schema.optionalKey(secretRef("Broker password")),
  tls: Schema.optionalKey(Schema.Struct({
    ca: Schema.optionalKey(Schema.String.annotate({ description: "CA certificate file (PEM) for a private broker CA." })),
    cert: Schema.optionalKey(Schema.String.annotate({ description: "Client certificate file (PEM)." })),
    key: Schema.optionalKey(Schema.String.annotate({ description: "Client private key file (PEM)." })),
    rejectUnauthorized: Schema.Boolean.annotate({
      description: "Verify the broker's certificate. Turn off only on an isolated test bench.",
      default: true
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(true)))
  }).check(Schema.makeFilter((tls) =>
    (tls.cert === undefined) === (tls.key === undefined) ? undefined : "give cert: and key: together (client certificate authentication)"
  )).annotate({ description: "TLS settings for mqtts://." })),
  topicPrefix: Schema.String.check(
    Schema.isPattern(/^[^#+/\u0000][^#+\u0000]*[^#+/\u0000]$|^[^#+/\u0000]$/u, {
      message: "must be a topic prefix without wildcards (+, #) or leading/trailing /"
    })
  ).annotate({
    description: "Prefix of the bridge's own topics; its state is retained at <prefix>/bridge/state.",
    default: "scorebridge"
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("scorebridge")))
}).annotate({ description: "MQTT broker; needed when any scoreboard or button source uses MQTT, or a place has a feedbackTopic." })

const uniquePlaceKeys = Schema.makeFilter((places: ReadonlyArray<{ readonly key: string }>) => {
  const firstIndex = new Map<string, number>()
  const issues: Array<{ path: ReadonlyArray<PropertyKey>; issue: string }> = []
  places.forEach((place, index) => {
    const first = firstIndex.get(place.key)
    if (first === undefined) firstIndex.set(place.key, index)
    else issues.push({ path: [index, "key"], issue: `duplicate place key "${place.key}" (also places[${first}])` })
  })
  return issues
})

interface CrossFields {
  readonly service: { readonly companyKey?: string }
  readonly mqtt?: unknown
  readonly buttons?: ReadonlyArray<Button>
  readonly places: ReadonlyArray<Place>
  readonly status: { readonly publishReadings: boolean; readonly listen: string }
}

// Rules spanning sections: caught here, not when the daemon reaches that place.
const sectionsAgree = Schema.makeFilter((config: CrossFields) => [
  ...config.places.flatMap((place, index) => [
    ...(place.scoreboard?.mqtt !== undefined && config.mqtt === undefined
      ? [{ path: ["places", index, "scoreboard", "mqtt"], issue: "uses MQTT, but there is no top-level mqtt: block with the broker url" }]
      : []),
    ...(place.scoreboard !== undefined && place.sport === undefined && config.service.companyKey === undefined
      ? [{ path: ["places", index], issue: "has no sport: set sport:, or service.companyKey so the bridge can read the place's sport from the service" }]
      : [])
  ]),
  ...buttonRules(config),
  ...listenRules(config),
  ...(config.status.publishReadings && config.mqtt === undefined
    ? [{ path: ["status", "publishReadings"], issue: "needs the top-level mqtt: block: readings are published to its broker" }]
    : [])
])

export const Config = Schema.Struct({
  venue: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/u, {
    message: "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit"
  })).annotate({
    description: "This site's name in a fleet (e.g. lyon-centre): a venue label on every /metrics series, so a central Prometheus tells the venues apart."
  })),
  service: Service,
  stateDirectory: Schema.NonEmptyString.annotate({
    description: "Directory for the durable outbox and state. Default: $STATE_DIRECTORY (systemd StateDirectory=), else ./state."
  }).pipe(Schema.withDecodingDefaultKey(Effect.sync(() => process.env["STATE_DIRECTORY"] || "./state"))),
  retention: Schema.Struct({
    deliveredHours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 * 365 })).annotate({
      description: "How long delivered entries stay in the outbox for inspection, in hours.",
      default: 72
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(72)))
  }).annotate({ description: "Housekeeping of the outbox." }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  status: Schema.Struct({
    listen: Listen.annotate({
      description: "host:port of the status page, /health and /metrics. Keep it on 127.0.0.1 unless the venue network is trusted.",
      default: "127.0.0.1:8370"
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("127.0.0.1:8370"))),
    noDataAfterSeconds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3600 })).annotate({
      description: "A serial scoreboard with no valid frame for this long shows NO DATA and fails /healthz. Consoles repeat their state several times a second.",
      default: 10
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(10))),
    stuckAfterSeconds: Schema.Int.check(Schema.isBetween({ minimum: 5, maximum: 86_400 })).annotate({
      description: "An entry or click still undelivered after this long fails /healthz (delivery stuck).",
      default: 120
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(120))),
    publishReadings: Schema.Boolean.annotate({
      description: "Also publish each place's current normalised reading (JSON, not retained, QoS 0, on change) at <mqtt.topicPrefix>/<place>/reading. Needs the mqtt: block.",
      default: false
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
  }).annotate({ description: "Local status page and health endpoint." }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  clips: Schema.Struct({
    followUp: Schema.Boolean.annotate({
      description: "Read each accepted click's Moment until its clip exists (clip ready), none came by the deadline (no clip) or the moment is gone (deleted). Reads use only request slots that no click or score wants.",
      default: true
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(true))),
    firstReadSeconds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 600 })).annotate({
      description: "The first read of a click's Moment, this long after the service accepted it (clips are cut a few seconds after); later reads triple it (10, 30, 90 s, then the deadline).",
      default: 10
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(10))),
    noClipAfterSeconds: Schema.Int.check(Schema.isBetween({ minimum: 10, maximum: 3600 })).annotate({
      description: "A click whose Moment has no clip this long after it was accepted is shown as no clip.",
      default: 180
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(180))),
    problemAfterClicks: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
      description: "This many clicks in a row without a clip at a place raise its problem line on the status page and fail /healthz for it.",
      default: 3
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(3)))
  }).annotate({ description: "Following clicks until their clips exist." }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  log: Schema.Struct({
    level: Schema.Literals(["trace", "debug", "info", "warn", "error"]).annotate({
      description: "Least severe level written to the journal.",
      default: "info"
    }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("info" as const)))
  }).annotate({ description: "Logging." }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  upgrades: Upgrades.pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  mqtt: Schema.optionalKey(Mqtt),
  buttons: Schema.optionalKey(Schema.Array(Button).annotate({
    description: "Courtside button sources (devices); places[].actions map their gestures to highlights and undo."
  })),
  places: Schema.Array(Place).annotate({
    description: "The places this bridge serves; at least one, keys unique."
  }).check(Schema.isMinLength(1, { message: "at least one place is required" }), uniquePlaceKeys)
}).annotate({
  title: "scorebridge configuration",
  description: "Configuration of the scorebridge daemon (YAML). Secrets are references (env, file, credential), never values."
}).check(sectionsAgree)

export type Config = typeof Config.Type
export type { Button } from "./buttons.ts"
export type { Action, ClickSettings, TeamOverlay, Teams } from "./clicks.ts"
export type { Overlay } from "./overlay.ts"
export type { Place, Scoreboard } from "./place.ts"
export type { SecretRef } from "./secret-ref.ts"
