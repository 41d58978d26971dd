import { Schema } from "effect"

/**
 * Failures of a service call. Each carries the request (method and path with
 * ids, never headers) and what the service said, so a dead letter or a log
 * line is enough to act on. No error holds the token or the request object.
 */
const Request = {
  method: Schema.String,
  path: Schema.String
}

/** What the service said in its error body (`{error}`, `{message}` or plain text), if anything. */
const Said = { error: Schema.optional(Schema.String) }

const said = (e: { readonly error?: string | undefined }) => (e.error === undefined ? "" : `: ${e.error}`)

export class InvalidBaseUrl extends Schema.TaggedError<InvalidBaseUrl>()("InvalidBaseUrl", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `invalid service base URL ${JSON.stringify(this.url)}: ${this.reason}`
  }
}

export const FieldError = Schema.Struct({
  field: Schema.optional(Schema.String),
  message: Schema.String
})
export type FieldError = typeof FieldError.Type

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  ...Request,
  status: Schema.Literal(400),
  errors: Schema.Array(FieldError)
}) {
  override get message() {
    const list = this.errors.map((e) => (e.field === undefined ? e.message : `${e.field}: ${e.message}`))
    return `${this.method} ${this.path} rejected (400)${list.length === 0 ? "" : `: ${list.join("; ")}`}`
  }
}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  ...Request,
  ...Said,
  status: Schema.Literal(401)
}) {
  override get message() {
    return `${this.method} ${this.path}: token missing, revoked, expired or not allowed for this organization (401)${said(this)}`
  }
}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  ...Request,
  ...Said,
  status: Schema.Literal(403)
}) {
  override get message() {
    return `${this.method} ${this.path}: outside what the token may touch (403)${said(this)}`
  }
}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  ...Request,
  ...Said,
  status: Schema.Literal(404)
}) {
  override get message() {
    return `${this.method} ${this.path}: not found or not visible to the token (404)${said(this)}`
  }
}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  ...Request,
  ...Said,
  status: Schema.Literal(409)
}) {
  override get message() {
    return `${this.method} ${this.path}: id already used by an open event (409)${said(this)}`
  }
}

export class StillRunning extends Schema.TaggedError<StillRunning>()("StillRunning", {
  ...Request,
  ...Said,
  status: Schema.Literal(417)
}) {
  override get message() {
    return `${this.method} ${this.path}: event still running (417)${said(this)}`
  }
}

export class Unprocessable extends Schema.TaggedError<Unprocessable>()("Unprocessable", {
  ...Request,
  ...Said,
  status: Schema.Literal(422)
}) {
  override get message() {
    return `${this.method} ${this.path}: not in a state allowing this operation (422)${said(this)}`
  }
}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...Request,
  ...Said,
  status: Schema.Literal(429),
  retryAfterMs: Schema.optional(Schema.Number)
}) {
  override get message() {
    const after = this.retryAfterMs === undefined ? "" : `, retry after ${this.retryAfterMs} ms`
    return `${this.method} ${this.path}: rate limit exceeded (429${after})${said(this)}`
  }
}

export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", {
  ...Request,
  ...Said,
  status: Schema.Number
}) {
  override get message() {
    return `${this.method} ${this.path}: service failed (${this.status})${said(this)}`
  }
}

/** `sent`: the request may have reached the service, so whether it was applied is unknown. */
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  ...Request,
  timeoutMs: Schema.Number,
  sent: Schema.Boolean
}) {
  override get message() {
    const outcome = this.sent ? "outcome unknown" : "not sent"
    return `${this.method} ${this.path}: no answer within ${this.timeoutMs} ms (${outcome})`
  }
}

/** `sent`: as for `RequestTimeout`; false when the connection was never made (refused, DNS, unreachable, TLS). */
export class ConnectionFailed extends Schema.TaggedError<ConnectionFailed>()("ConnectionFailed", {
  ...Request,
  sent: Schema.Boolean,
  detail: Schema.String
}) {
  override get message() {
    const outcome = this.sent ? "outcome unknown" : "not sent"
    return `${this.method} ${this.path}: connection failed (${outcome}): ${this.detail}`
  }
}

/** A status the contract does not name, or a success body that did not decode. */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  ...Request,
  status: Schema.Number,
  detail: Schema.String
}) {
  override get message() {
    return `${this.method} ${this.path}: unexpected response (${this.status}): ${this.detail}`
  }
}

export type ServiceError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | StillRunning
  | Unprocessable
  | RateLimited
  | ServerError
  | RequestTimeout
  | ConnectionFailed
  | UnexpectedResponse

export type RetryClass = "never" | "rate-limited" | "transient" | "unauthorized" | "unprocessable"

/**
 * How the delivery scheduler should treat a failure, from the service's retry
 * guidance: 400/403/404/409/417 never succeed unchanged; 429 backs off; 5xx and
 * network trouble are transient; 401 pauses everything sent with that token;
 * 422 is worth retrying only while waiting for processing.
 * A 2xx body that did not decode was applied, so resending could duplicate it.
 */
export function retryClass(e: ServiceError): RetryClass {
  switch (e._tag) {
    case "BadRequest":
    case "Forbidden":
    case "NotFound":
    case "Conflict":
    case "StillRunning":
    case "UnexpectedResponse":
      return "never"
    case "RateLimited":
      return "rate-limited"
    case "ServerError":
    case "RequestTimeout":
    case "ConnectionFailed":
      return "transient"
    case "Unauthorized":
      return "unauthorized"
    case "Unprocessable":
      return "unprocessable"
  }
}
