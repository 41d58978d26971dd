import { Cause, Effect, Layer, Schedule, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { parseHostPort } from "../domain/host-port.ts"
import { timelineSvg } from "../timeline/timeline-svg.ts"
import { isRouteNotFound } from "../transport/http-edge/edge-errors.ts"
import { serveEdge } from "../transport/http-edge/edge-server.ts"
import { withWalls } from "../transport/http-edge/edge-walls.ts"
import { isRead } from "../transport/http-edge/origin-wall.ts"
import { followedStatusHosts, statusHostRefusal } from "./status-hosts.ts"
import { StatusJson } from "./json/status-json.ts"
import { BridgeStatus } from "./status-model.ts"
import { statusPageHtml } from "./status-page.ts"
import { statusScript } from "./status-script.ts"
import { statusCss } from "./status-style.ts"

export class StatusListenError extends Schema.TaggedError<StatusListenError>()("StatusListenError", {
  listen: Schema.String,
  message: Schema.String
}) {}

const text = (status: number, body: string, contentType = "text/plain; charset=utf-8") => HttpServerResponse.text(body, { status, contentType })

/**
 * The page is its own three files: nothing may load from elsewhere, nothing inline may run (an
 * error text from a device that got into the page as HTML would run nothing), nothing may frame it.
 * The timelines are pictures from this server; an SVG opened on its own runs nothing either way.
 */
const headers: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

type Status = BridgeStatus["Service"]

/** `GET /places/<key>/timeline.svg[?width=N]`: the place's current event as a standalone SVG. */
const timeline = (status: Status) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const width = Number(new URL(request.url, "http://status").searchParams.get("width") ?? Number.NaN)
    const model = yield* status.timeline((yield* HttpRouter.params)["key"] ?? "")
    return text(200, timelineSvg(model, Number.isFinite(width) ? { width } : {}), "image/svg+xml")
  }).pipe(
    Effect.catchTags({
      UnknownPlace: (e) => Effect.succeed(text(404, `${e.message}\n`)),
      OutboxReadError: (e) => Effect.succeed(text(503, `timeline unavailable: ${e.message}\n`))
    })
  )

// A checkout without esbuild cannot bundle the page's modules: the log says so, as the answer does.
const script = Effect.tryPromise({ try: statusScript, catch: (cause) => (cause instanceof Error ? cause.message : String(cause)) }).pipe(
  Effect.matchEffect({
    onFailure: (error) => Effect.as(Effect.logError(error), text(500, `${error}\n`)),
    onSuccess: (body) => Effect.succeed(text(200, body, "text/javascript; charset=utf-8"))
  })
)

const encodeStatus = Schema.encodeEffect(Schema.fromJsonString(StatusJson))

/**
 * The snapshot through its Schema, the one its readers decode with: a field the Schema does not
 * name is not served. A snapshot the Schema refuses is a bug: logged with the field, answered 500.
 */
const statusJson = (status: Status) =>
  status.snapshot.pipe(
    Effect.flatMap(encodeStatus),
    Effect.map((body) => text(200, body, "application/json")),
    Effect.catchTag("SchemaError", (e) =>
      Effect.as(
        Effect.logError(`/status.json: the snapshot does not fit its Schema (src/status/json), a bug to report with this line: ${e.message}`),
        text(500, "status.json unavailable: the snapshot does not fit its Schema; the bridge's log names the field\n")
      ))
  )

const health = (status: Status) =>
  Effect.map(status.snapshot, (snapshot) => snapshot.healthy ? text(200, "ok\n") : text(503, `${snapshot.reasons.join("\n")}\n`))

// The routes close over the status service, so the router needs nothing from the request's context.
const routes = (status: Status) => [
  HttpRouter.route("GET", "/", text(200, statusPageHtml, "text/html; charset=utf-8")),
  HttpRouter.route("GET", "/status.js", script),
  HttpRouter.route("GET", "/status.css", text(200, statusCss, "text/css; charset=utf-8")),
  HttpRouter.route("GET", "/status.json", statusJson(status)),
  HttpRouter.route("GET", "/healthz", health(status)),
  HttpRouter.route("GET", "/metrics", Effect.map(status.metrics, (body) => text(200, body, "text/plain; version=0.0.4; charset=utf-8"))),
  HttpRouter.route("GET", "/places/:key/timeline.svg", timeline(status))
] as const

const notFound = text(404, "not found: try /, /status.json, /healthz, /metrics or /places/<key>/timeline.svg\n")

/** Only GET and HEAD; an unknown path a 404 that lists the known ones; anything else a 500 the log explains. */
const statusApp = Effect.gen(function*() {
  const router = yield* HttpRouter.make
  yield* router.addAll(routes(yield* BridgeStatus))
  const routed = router.asHttpEffect()
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!isRead(request.method)) return text(405, "only GET\n")
    return yield* routed.pipe(Effect.catchIf(isRouteNotFound, () => Effect.succeed(notFound)))
  })
})

const failed = (cause: Cause.Cause<unknown>) => Effect.as(Effect.logError("status page request failed", cause), text(500, "status unavailable\n"))

/**
 * Serves the status page (its script and style), /status.json, /healthz, /metrics and each
 * place's timeline on `listen`, behind the edge's Host wall. The bridge keeps delivering when the
 * address is taken (another instance, another program): the status page is retried every 30 s, not fatal.
 */
export const statusServerLayer = (listen: string) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const { host, port } = parseHostPort(listen)
    const app = withWalls({ allowed: followedStatusHosts(listen), hostRefusal: statusHostRefusal, headers, failed })(yield* statusApp)
    const serve = serveEdge(host, port, app).pipe(
      Effect.mapError((e) => new StatusListenError({ listen, message: e.message })),
      Effect.tap(() => Effect.logInfo(`status page on http://${listen}/ (also /healthz, /metrics)`)),
      Effect.andThen(Effect.never),
      Effect.scoped,
      Effect.tapError((e) => Effect.logError(`status page cannot listen on ${listen}: ${e.message}; retrying every 30 s`)),
      Effect.retry({ schedule: Schedule.spaced("30 seconds") })
    )
    yield* Effect.forkScoped(serve)
  }))
