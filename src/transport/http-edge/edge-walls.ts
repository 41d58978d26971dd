import { Cause, Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HostRefused, isRefusal, OriginRefused, refusalReply } from "./edge-errors.ts"
import { hostAllowed } from "./host-wall.ts"
import { originAllowed } from "./origin-wall.ts"

export interface EdgeWalls {
  /** From allowedHosts: every Host the server answers; a function when they follow the machine's addresses. */
  readonly allowed: ReadonlySet<string> | (() => ReadonlySet<string>)
  /** The 421's words: where this server does answer. */
  readonly hostRefusal: string
  /** Sent with every answer, refusals included. */
  readonly headers: Readonly<Record<string, string>>
  /** An answer for whatever a handler left unanswered (a defect, an error no route caught): logged by it, never shown. */
  readonly failed: (cause: Cause.Cause<unknown>) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
}

/** The Host header, then the Origin of anything but GET/HEAD: a refusal before the app runs. */
export const checkWalls = Effect.fnUntraced(function*(walls: EdgeWalls) {
  const request = yield* HttpServerRequest.HttpServerRequest
  const host = request.headers["host"]
  if (!hostAllowed(host, typeof walls.allowed === "function" ? walls.allowed() : walls.allowed)) return yield* new HostRefused({ message: walls.hostRefusal })
  if (!originAllowed(request.method, request.headers["origin"], host)) return yield* new OriginRefused()
})

/**
 * The edge around an app: Host and Origin walls, every refusal answered in one place
 * (edge-errors.ts), anything else the app failed with answered by `walls.failed`, and the
 * security headers on every answer. What comes out never fails, so the server writes it as is.
 */
export const withWalls = (walls: EdgeWalls) =>
<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.andThen(checkWalls(walls), app).pipe(
    Effect.catchCause((cause): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> => {
      // The server closing interrupts requests in flight: there is no one left to answer.
      if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
      const refusal = Cause.findErrorOption(cause)
      if (refusal._tag === "Some" && isRefusal(refusal.value)) return Effect.succeed(refusalReply(refusal.value))
      return walls.failed(cause)
    }),
    Effect.map(HttpServerResponse.setHeaders(walls.headers))
  )
