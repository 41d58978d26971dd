import { Effect, Schema, Struct } from "effect"
import { AnswerJson, PlaceQueueJson } from "../status/json/place-json.ts"
import { StatusJson as WholeStatus, statusReader, TokenStatusJson } from "../status/json/status-json.ts"
import { fetchDaemonStatus } from "./daemon-status.ts"
import type { DaemonObservation, Observation, ServiceReach, UnitObservation } from "./guard-rules.ts"
import type { Look } from "./guard-watch.ts"
import { runTool } from "./run-tool.ts"

/** An answer of the service to one item, as /status.json shows it. */
const Answer = AnswerJson.mapFields(Struct.pick(["state", "at"]))

/** The part of the daemon's /status.json (its Schema, src/status/json/) that says whether it delivers. */
const StatusJson = statusReader(Schema.Struct({
  generatedAt: WholeStatus.fields.generatedAt,
  places: Schema.Array(Schema.Struct({
    queue: PlaceQueueJson.mapFields(Struct.pick(["score", "click", "undo"])),
    lastEntry: Schema.NullOr(Schema.Struct({ answer: Answer })),
    lastPress: Schema.NullOr(Schema.Struct({ answer: Schema.NullOr(Answer) }))
  })),
  token: TokenStatusJson.mapFields(Struct.pick(["suspended", "backoffUntil"]))
}))
const decodeStatus = Schema.decodeUnknownEffect(Schema.fromJsonString(StatusJson))

// Accepted, with or without a warning: the service took the item.
const accepted = new Set(["delivered", "warning"])

const daemonObservation = (status: typeof StatusJson.Type): DaemonObservation => {
  const answers = status.places.flatMap((p) => [p.lastEntry?.answer, p.lastPress?.answer]).filter((a) => a != null && accepted.has(a.state))
  const token = status.token
  return {
    pending: status.places.reduce((n, p) => n + p.queue.score + p.queue.click + p.queue.undo, 0),
    lastDeliveredAt: answers.length === 0 ? null : Math.max(...answers.map((a) => a!.at)),
    heldBack: token.suspended !== null
      ? `the service rejects the token: ${token.suspended}`
      : token.backoffUntil !== null && token.backoffUntil > status.generatedAt
      ? "the service rate-limits the token (429)"
      : null
  }
}

// The service's own answer time across the venue's uplink, with margin.
const probeTimeoutMs = 5_000

/** The daemon's delivery figures, or null when its status page does not answer as the bridge's. */
const askDaemon = (listen: string) =>
  fetchDaemonStatus(listen).pipe(
    // No answer, or not 200: an empty body, which does not decode either.
    Effect.flatMap((fetched) => decodeStatus(fetched._tag === "Body" && fetched.status === 200 ? fetched.body : "")),
    Effect.map(daemonObservation),
    Effect.orElseSucceed(() => null)
  )

/**
 * The service's base URL asked without the token: any HTTP answer below 500 means the venue
 * reaches it. Whether the token is accepted is the daemon's business (its /status.json says).
 */
const probeService = (baseUrl: string): Effect.Effect<ServiceReach> =>
  Effect.tryPromise(async () => {
    const response = await fetch(baseUrl, { redirect: "manual", signal: AbortSignal.timeout(probeTimeoutMs) })
    await response.body?.cancel()
    return response.status >= 500 ? "failing" as const : "answering" as const
  }).pipe(Effect.orElseSucceed(() => "unreachable" as const))

const UnitShow = Schema.Struct({ ActiveState: Schema.String, SubState: Schema.String, NRestarts: Schema.NumberFromString })

/** `systemctl show`'s Key=Value lines, for the three the guard reads. */
export const unitObservation = (text: string): UnitObservation | null => {
  const fields = Object.fromEntries(text.split("\n").flatMap((line) => {
    const at = line.indexOf("=")
    return at < 0 ? [] : [[line.slice(0, at), line.slice(at + 1).trim()]]
  }))
  const decoded = Schema.decodeUnknownOption(UnitShow)(fields)
  return decoded._tag === "None" ? null : { activeState: decoded.value.ActiveState, subState: decoded.value.SubState, restarts: decoded.value.NRestarts }
}

const askSystemd = (unit: string) =>
  runTool("systemctl", ["show", unit, "-p", "ActiveState,SubState,NRestarts"], { timeoutMs: 10_000 }).pipe(
    Effect.map((ran) => (ran.status === 0 ? unitObservation(ran.stdout) : null))
  )

export interface SystemLookOptions {
  /** The daemon's `status.listen`. */
  readonly statusListen: string
  /** The daemon's `service.baseUrl`. */
  readonly serviceUrl: string
  /** Ask systemd about scorebridge.service: only when systemd is PID 1 and the package is in the real root. */
  readonly systemd: boolean
}

/** What the guard sees of the new version on this machine, all three asked side by side. */
export const lookAtSystem = (options: SystemLookOptions): Look<never> =>
  Effect.all({
    unit: options.systemd ? askSystemd("scorebridge.service") : Effect.succeed(null),
    daemon: askDaemon(options.statusListen),
    service: probeService(options.serviceUrl)
  }, { concurrency: "unbounded" }).pipe(Effect.map((seen): Omit<Observation, "at"> => seen))
