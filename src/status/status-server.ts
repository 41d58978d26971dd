import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Effect, Layer, Schedule, Schema } from "effect"
import { parseHostPort } from "../domain/host-port.ts"
import { timelineSvg } from "../timeline/timeline-svg.ts"
import { BridgeStatus } from "./status-model.ts"
import { statusPageHtml } from "./status-page.ts"
import { closeHttpServer } from "../transport/http-server-close.ts"

export class StatusListenError extends Schema.TaggedError<StatusListenError>()("StatusListenError", {
  listen: Schema.String,
  message: Schema.String
}) {}

interface Reply {
  readonly status: number
  readonly type: string
  readonly body: string
}

const text = (status: number, body: string): Reply => ({ status, type: "text/plain; charset=utf-8", body })

const headers = (reply: Reply) => ({
  "content-type": reply.type,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  // The page is self-contained: nothing may load from elsewhere, nothing may frame it.
  // The timelines are pictures from this server; an SVG opened on its own runs nothing either way.
  "content-security-policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'"
})

const timelinePath = /^\/places\/([^/]+)\/timeline\.svg$/u

// A malformed escape names no place: it is answered like any unknown key, not as a server error.
const placeKeyOf = (encoded: string) => {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return encoded
  }
}

/** `GET /places/<key>/timeline.svg[?width=N]`: the place's current event as a standalone SVG. */
const timeline = (encodedKey: string, search: URLSearchParams) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
    const width = Number(search.get("width") ?? Number.NaN)
    const model = yield* status.timeline(placeKeyOf(encodedKey))
    return { status: 200, type: "image/svg+xml", body: timelineSvg(model, Number.isFinite(width) ? { width } : {}) } satisfies Reply
  }).pipe(
    Effect.catchTags({
      UnknownPlace: (e) => Effect.succeed(text(404, `${e.message}\n`)),
      OutboxReadError: (e) => Effect.succeed(text(503, `timeline unavailable: ${e.message}\n`))
    })
  )

const route = (url: URL) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
    const path = url.pathname
    const place = timelinePath.exec(path)
    if (place !== null) return yield* timeline(place[1]!, url.searchParams)
    switch (path) {
      case "/":
        return { status: 200, type: "text/html; charset=utf-8", body: statusPageHtml }
      case "/status.json":
        return { status: 200, type: "application/json", body: JSON.stringify(yield* status.snapshot) }
      case "/healthz": {
        const snapshot = yield* status.snapshot
        return snapshot.healthy ? text(200, "ok\n") : text(503, `${snapshot.reasons.join("\n")}\n`)
      }
      case "/metrics":
        return { status: 200, type: "text/plain; version=0.0.4; charset=utf-8", body: yield* status.metrics }
      default:
        return text(404, "not found: try /, /status.json, /healthz, /metrics or /places/<key>/timeline.svg\n")
    }
  })

const listenOn = (server: Server, listen: string) =>
  Effect.callback<void, StatusListenError>((resume) => {
    const { host, port } = parseHostPort(listen)
    const failed = (err: Error) => resume(Effect.fail(new StatusListenError({ listen, message: err.message })))
    server.once("error", failed)
    server.listen(port, host, () => {
      server.off("error", failed)
      resume(Effect.void)
    })
  })

/**
 * Serves the status page, /status.json, /healthz, /metrics and each place's timeline on `listen`.
 * The bridge keeps delivering when the address is taken (another instance,
 * another program): the status page is retried every 30 s, not fatal.
 */
export const statusServerLayer = (listen: string) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const context = yield* Effect.context<BridgeStatus>()
    const run = Effect.runPromiseWith(context)
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const reply: Promise<Reply> = req.method === "GET" || req.method === "HEAD"
        ? run(Effect.suspend(() => route(new URL(req.url ?? "/", "http://status")))).catch(() => text(500, "status unavailable\n"))
        : Promise.resolve(text(405, "only GET\n"))
      void reply.then((r) => {
        res.writeHead(r.status, headers(r))
        res.end(req.method === "HEAD" ? undefined : r.body)
      })
    }
    const serve = Effect.acquireRelease(
      Effect.suspend(() => {
        const server = createServer(handle)
        return listenOn(server, listen).pipe(Effect.as(server), Effect.onError(() => closeHttpServer(server)))
      }),
      closeHttpServer
    ).pipe(
      Effect.tap(() => Effect.logInfo(`status page on http://${listen}/ (also /healthz, /metrics)`)),
      Effect.tapError((e) => Effect.logError(`status page cannot listen on ${listen}: ${e.message}; retrying every 30 s`)),
      Effect.retry({ schedule: Schedule.spaced("30 seconds") })
    )
    yield* Effect.forkScoped(serve)
  }))
