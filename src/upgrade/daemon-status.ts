import { get } from "node:http"
import { Effect, Schema, Struct } from "effect"
import { formatHostPort, parseHostPort } from "../domain/host-port.ts"
import { PlaceEventJson, PlaceQueueJson, PlaceStatusJson } from "../status/json/place-json.ts"
import { statusReader } from "../status/json/status-json.ts"
import type { DaemonAnswer, PlaceActivity } from "./upgrade-window.ts"

/**
 * The part of the daemon's `/status.json` (its Schema, src/status/json/) that says whether a court
 * may be interrupted: only these fields, so an older or newer bridge's other fields do not matter.
 */
const StatusJson = statusReader(Schema.Struct({
  places: Schema.Array(Schema.Struct({
    key: PlaceStatusJson.fields.key,
    event: Schema.NullOr(PlaceEventJson.mapFields(Struct.pick(["key"]))),
    queue: PlaceQueueJson.mapFields(Struct.pick(["click", "undo"]))
  }))
}))

const activityOf = (status: typeof StatusJson.Type): ReadonlyArray<PlaceActivity> =>
  status.places.map((place) => ({
    key: place.key,
    liveEventKey: place.event?.key ?? null,
    clicksWaiting: place.queue.click,
    undosWaiting: place.queue.undo
  }))

// A status page answers in a few ms from memory; more than this and something is wrong with it.
const defaultTimeoutMs = 2_000
// status.json is a few kB per court: far above it, this is not the bridge.
const maxBodyBytes = 4 * 1024 * 1024

/** A wildcard listen address is reached on loopback: the check runs on the bridge's own machine. */
export const statusAddress = (listen: string): string => {
  const { host, port } = parseHostPort(listen)
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host
  return formatHostPort({ host: reachable, port })
}

/** The daemon's `/status.json` as its status page answered it, or why there was no answer. */
export type Fetched =
  | { readonly _tag: "Body"; readonly status: number; readonly body: string }
  | { readonly _tag: "Refused" }
  | { readonly _tag: "Failed"; readonly detail: string }

const fetchStatus = (address: string, timeoutMs: number) =>
  Effect.callback<Fetched>((resume) => {
    const { host, port } = parseHostPort(address)
    const request = get({ host, port, path: "/status.json", timeout: timeoutMs, headers: { accept: "application/json" } }, (response) => {
      const chunks: Array<Buffer> = []
      let size = 0
      response.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBodyBytes) request.destroy(new Error(`answer larger than ${maxBodyBytes} bytes`))
        else chunks.push(chunk)
      })
      response.on("end", () => resume(Effect.succeed({ _tag: "Body", status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") })))
      response.on("error", (error) => resume(Effect.succeed({ _tag: "Failed", detail: error.message })))
    })
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    request.on("error", (error: NodeJS.ErrnoException) =>
      resume(Effect.succeed(error.code === "ECONNREFUSED" ? { _tag: "Refused" } : { _tag: "Failed", detail: error.message })))
    return Effect.sync(() => request.destroy())
  })

/**
 * The `/status.json` of the bridge running on this machine, at `listen` (the config's
 * `status.listen`): what the upgrade window and the upgrade guard read. Never fails.
 */
export const fetchDaemonStatus = (listen: string, timeoutMs = defaultTimeoutMs): Effect.Effect<Fetched> =>
  fetchStatus(statusAddress(listen), timeoutMs)

/** Whether a court of the running bridge may be interrupted. Never fails: what went wrong is part of the answer. */
export const askDaemon = (listen: string, timeoutMs = defaultTimeoutMs): Effect.Effect<DaemonAnswer> =>
  Effect.gen(function*() {
    const at = statusAddress(listen)
    const fetched = yield* fetchStatus(at, timeoutMs)
    if (fetched._tag === "Refused") return { _tag: "NotRunning", at } as const
    if (fetched._tag === "Failed") return { _tag: "NotAnswering", at, detail: fetched.detail } as const
    if (fetched.status !== 200) return { _tag: "NotAnswering", at, detail: `HTTP ${fetched.status} for /status.json` } as const
    return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(StatusJson))(fetched.body).pipe(
      Effect.map((status): DaemonAnswer => ({ _tag: "Answered", places: activityOf(status) })),
      Effect.orElseSucceed((): DaemonAnswer => ({ _tag: "NotAnswering", at, detail: "its /status.json is not the bridge's status" }))
    )
  })
