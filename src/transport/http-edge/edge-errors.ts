import { Schema } from "effect"
import { HttpServerError, HttpServerResponse } from "effect/http"

/** The Host header names none of the server's own addresses (DNS rebinding): 421, in the server's words. */
export class HostRefused extends Schema.TaggedError<HostRefused>()("HostRefused", { message: Schema.String }) {}

/** A request that may change something, from another origin or none (CSRF): 403. */
export class OriginRefused extends Schema.TaggedError<OriginRefused>()("OriginRefused", {}) {}

/** A body past the server's limit: 413, and the connection closed (the rest is not read). */
export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", { message: Schema.String }) {}

/** A body of another type than the route takes (a plain form of another site posts urlencoded, multipart or text): 415. */
export class BodyNotJson extends Schema.TaggedError<BodyNotJson>()("BodyNotJson", {}) {}

/** A body that is not what it says (bad JSON), or could not be read: 400. */
export class BodyUnreadable extends Schema.TaggedError<BodyUnreadable>()("BodyUnreadable", { message: Schema.String }) {}

export type EdgeRefusal = HostRefused | OriginRefused | BodyTooLarge | BodyNotJson | BodyUnreadable

const plain = (status: number, text: string) => HttpServerResponse.text(`${text}\n`, { status, contentType: "text/plain; charset=utf-8" })

const json = (status: number, body: unknown, headers?: Record<string, string>) =>
  HttpServerResponse.text(JSON.stringify(body), { status, contentType: "application/json; charset=utf-8", ...(headers === undefined ? {} : { headers }) })

/** The one place a refusal becomes an answer: status and words, the same for every server of the edge. */
export const refusalReply = (refusal: EdgeRefusal): HttpServerResponse.HttpServerResponse => {
  switch (refusal._tag) {
    case "HostRefused":
      return plain(421, refusal.message)
    case "OriginRefused":
      return plain(403, "cross-origin request refused")
    case "BodyTooLarge":
      return json(413, { error: refusal.message }, { connection: "close" })
    case "BodyNotJson":
      return json(415, { error: "request body must be JSON (Content-Type: application/json)" })
    case "BodyUnreadable":
      return json(400, { error: refusal.message })
  }
}

export const isRefusal = (error: unknown): error is EdgeRefusal =>
  error instanceof HostRefused || error instanceof OriginRefused || error instanceof BodyTooLarge || error instanceof BodyNotJson ||
  error instanceof BodyUnreadable

/** The router found no route for the path: each server answers it with its own 404. */
export const isRouteNotFound = (error: unknown): boolean => error instanceof HttpServerError.HttpServerError && error.reason._tag === "RouteNotFound"
