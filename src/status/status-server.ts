import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Effect, Layer, Schedule, Schema } from "effect"
import { parseHostPort } from "../domain/host-port.ts"
import { BridgeStatus } from "./status-model.ts"
import { statusPageHtml } from "./status-page.ts"

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
  "content-security-policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"
})

const route = (path: string) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
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
        return text(404, "not found: try /, /status.json, /healthz or /metrics\n")
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

const closeServer = (server: Server) =>
  Effect.callback<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    server.close(() => resume(Effect.void))
    // A browser tab keeps its connection alive: without this, close() waits for it.
    server.closeAllConnections()
  })

/**
 * Serves the status page, /status.json, /healthz and /metrics on `listen`.
 * The bridge keeps delivering when the address is taken (another instance,
 * another program): the status page is retried every 30 s, not fatal.
 */
export const statusServerLayer = (listen: string) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const context = yield* Effect.context<BridgeStatus>()
    const run = Effect.runPromiseWith(context)
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://status").pathname
      const reply: Promise<Reply> = req.method === "GET" || req.method === "HEAD"
        ? run(route(path)).catch(() => text(500, "status unavailable\n"))
        : Promise.resolve(text(405, "only GET\n"))
      void reply.then((r) => {
        res.writeHead(r.status, headers(r))
        res.end(req.method === "HEAD" ? undefined : r.body)
      })
    }
    const serve = Effect.acquireRelease(
      Effect.suspend(() => {
        const server = createServer(handle)
        return listenOn(server, listen).pipe(Effect.as(server), Effect.onError(() => closeServer(server)))
      }),
      closeServer
    ).pipe(
      Effect.tap(() => Effect.logInfo(`status page on http://${listen}/ (also /healthz, /metrics)`)),
      Effect.tapError((e) => Effect.logError(`status page cannot listen on ${listen}: ${e.message}; retrying every 30 s`)),
      Effect.retry({ schedule: Schedule.spaced("30 seconds") })
    )
    yield* Effect.forkScoped(serve)
  }))
