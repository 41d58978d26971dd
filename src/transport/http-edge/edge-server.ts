import { createServer, type Server } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Schema, type Scope } from "effect"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"

export class EdgeListenError extends Schema.TaggedError<EdgeListenError>()("EdgeListenError", {
  address: Schema.String,
  port: Schema.Number,
  /** The system's errno code (EADDRINUSE, EACCES, EADDRNOTAVAIL…), when it gave one. */
  code: Schema.optional(Schema.String),
  message: Schema.String
}) {}

/**
 * The one close of every edge server: stop listening and wait for it. A browser tab keeps its
 * connection alive, and a page's poll may be in flight: without closing them, close() waits.
 */
export const closeHttpServer = (server: Server): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    server.close(() => resume(Effect.void))
    server.closeAllConnections()
  })

const listenError = (address: string, port: number, cause: unknown) => {
  const error = cause as NodeJS.ErrnoException
  return new EdgeListenError({
    address,
    port,
    ...(typeof error?.code === "string" ? { code: error.code } : {}),
    message: error instanceof Error ? error.message : String(cause)
  })
}

/**
 * Serves `app` (already behind its walls: it never fails) on `address`:`port` with
 * @effect/platform-node's server, until the scope closes.
 */
export const serveEdge = <R>(
  address: string,
  port: number,
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
): Effect.Effect<void, EdgeListenError, Scope.Scope | Exclude<R, HttpServerRequest.HttpServerRequest>> =>
  Effect.gen(function*() {
    const server = createServer()
    const served = yield* NodeHttpServer.make(() => server, { host: address, port }).pipe(
      Effect.mapError((error) => listenError(address, port, error.cause))
    )
    yield* served.serve(app)
    // Added last, so it runs first: the platform's own shutdown then finds the server closed.
    yield* Effect.addFinalizer(() => closeHttpServer(server))
  })
