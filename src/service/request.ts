import { Clock, Effect, Option, Predicate, Redacted, Ref, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import type { HttpClientError } from "effect/http/HttpClientError"
import {
  BadRequest,
  Conflict,
  ConnectionFailed,
  Forbidden,
  NotFound,
  RateLimited,
  RequestTimeout,
  ServerError,
  StillRunning,
  Unauthorized,
  UnexpectedResponse,
  Unprocessable,
  type FieldError,
  type ServiceError
} from "./errors.ts"
import { ErrorBody } from "./schemas.ts"
import { connectTimeoutCode } from "./http-agent.ts"

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE"

export interface Call {
  readonly method: Method
  /** Already-encoded path below the base URL, e.g. `/public/events/a%2Fb`. */
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  readonly body?: unknown
  /** Overrides the client's timeout for slow operations. */
  readonly timeoutMs?: number
}

/** A 2xx answer; the body is parsed JSON, or `undefined` when empty or not JSON. */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** The service's clock as last seen in a `Date` header, for the skew check and the status page. */
export interface ServerClock {
  /** From the `Date` header: whole seconds, in ms. */
  readonly serverDate: number
  /** Local clock when the answer arrived. */
  readonly localDate: number
  /** From sending the request to receiving the answer's headers. */
  readonly latencyMs: number
}

export interface RequesterConfig {
  readonly baseUrl: URL
  readonly token: Redacted.Redacted<string>
  readonly timeoutMs: number
  /** The connection pool's connect timeout (see `connectTimeoutMs`). */
  readonly connectTimeoutMs: number
  readonly lastServerClock: Ref.Ref<Option.Option<ServerClock>>
}

/**
 * Sends one call and turns every outcome into either a 2xx `Answer` or a
 * `ServiceError`. Never retries: the delivery scheduler owns retries and the
 * shared rate budget.
 */
export const makeRequester = (http: HttpClient.HttpClient, config: RequesterConfig) => {
  const prefix = config.baseUrl.href.replace(/\/+$/, "")
  return (call: Call): Effect.Effect<Answer, ServiceError> => {
    const where = shownRequest(call)
    const timeoutMs = call.timeoutMs ?? config.timeoutMs
    let request = HttpClientRequest.make(call.method)(`${prefix}${call.path}`, {
      urlParams: call.query,
      acceptJson: true
    }).pipe(HttpClientRequest.bearerToken(config.token))
    if (call.body !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, call.body)

    return Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const response = yield* http.execute(request)
      const arrived = yield* Clock.currentTimeMillis
      const serverDate = Date.parse(response.headers["date"] ?? "")
      if (!Number.isNaN(serverDate)) {
        yield* Ref.set(config.lastServerClock, Option.some({ serverDate, localDate: arrived, latencyMs: arrived - started }))
      }
      const text = yield* response.text
      const body = parseJson(text)
      if (response.status >= 200 && response.status < 300) return { status: response.status, body }
      return yield* Effect.fail(statusError(where, response.status, body, text, response.headers["retry-after"], arrived))
    }).pipe(
      Effect.catchTag("HttpClientError", (e) => Effect.fail(transportError(where, e, config.connectTimeoutMs))),
      Effect.timeoutOrElse({
        duration: timeoutMs,
        // An unreachable service fails earlier, on the connect timeout; by now the request may have been applied.
        orElse: () => Effect.fail(new RequestTimeout({ ...where, timeoutMs, sent: true }))
      }),
      // Trace headers would tell the service nothing it needs.
      Effect.provideService(HttpClient.TracerPropagationEnabled, false)
    )
  }
}

/**
 * Connecting gets part of the request's time, so a service that cannot be
 * reached fails as "not sent" (the connect timeout) before the request's own
 * deadline, which can only say "outcome unknown".
 */
export const connectTimeoutMs = (timeoutMs: number): number => Math.max(1, Math.floor(timeoutMs / 2))

/** Method and path with query, as errors show them; never headers. */
export const shownRequest = (call: Call): { readonly method: Method; readonly path: string } => ({
  method: call.method,
  path: call.query === undefined ? call.path : `${call.path}?${new URLSearchParams(call.query)}`
})

function parseJson(text: string): unknown {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

/** The service's own words, from whichever error layout it used; plain text is cut short. */
function serviceText(body: unknown, text: string): string | undefined {
  const decoded = decodeErrorBody(body)
  if (Option.isSome(decoded)) {
    const said = decoded.value.error ?? decoded.value.message
    if (said !== undefined) return said
  }
  const trimmed = text.trim()
  return trimmed === "" || body !== undefined ? undefined : trimmed.slice(0, 300)
}

function fieldErrors(body: unknown): ReadonlyArray<FieldError> {
  const decoded = decodeErrorBody(body)
  if (Option.isNone(decoded)) return []
  return (decoded.value.errors ?? []).map((e) =>
    Predicate.isString(e)
      ? { message: e }
      : e.field === undefined
        ? { message: e.message ?? "invalid" }
        : { field: e.field, message: e.message ?? "invalid" }
  )
}

function statusError(
  where: { method: string; path: string },
  status: number,
  body: unknown,
  text: string,
  retryAfter: string | undefined,
  now: number
): ServiceError {
  const said = { ...where, error: serviceText(body, text) }
  switch (status) {
    case 400: {
      const errors = fieldErrors(body)
      const fallback = said.error === undefined ? [] : [{ message: said.error }]
      return new BadRequest({ ...where, status, errors: errors.length > 0 ? errors : fallback })
    }
    case 401:
      return new Unauthorized({ ...said, status })
    case 403:
      return new Forbidden({ ...said, status })
    case 404:
      return new NotFound({ ...said, status })
    case 409:
      return new Conflict({ ...said, status })
    case 417:
      return new StillRunning({ ...said, status })
    case 422:
      return new Unprocessable({ ...said, status })
    case 429:
      return new RateLimited({ ...said, status, retryAfterMs: retryAfterMs(retryAfter, now) })
  }
  if (status >= 500) return new ServerError({ ...said, status })
  return new UnexpectedResponse({ ...where, status, detail: said.error ?? "status not in the service contract" })
}

/** `Retry-After` is either delay-seconds or an HTTP date. */
function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined
  const seconds = Number(header)
  if (header.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * Failures where the connection never carried the request: the service cannot
 * have seen it. Anything else (a reset, a socket closed mid-answer) happened
 * after the request may have been written, so its outcome is unknown.
 */
const neverSent = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID"
])

function transportError(where: { method: string; path: string }, e: HttpClientError, connectTimeoutMs: number): ServiceError {
  const reason = e.reason
  switch (reason._tag) {
    case "InvalidUrlError":
    case "EncodeError":
      return new ConnectionFailed({ ...where, sent: false, detail: reason._tag })
    case "TransportError": {
      const cause = errorCode(reason.cause)
      if (cause.code === connectTimeoutCode) {
        return new RequestTimeout({ ...where, timeoutMs: connectTimeoutMs, sent: false })
      }
      return new ConnectionFailed({
        ...where,
        sent: cause.code === undefined || !neverSent.has(cause.code),
        detail: cause.code ?? cause.message
      })
    }
    default:
      // The answer broke off while being read: the request was certainly sent.
      return new ConnectionFailed({ ...where, sent: true, detail: `${reason._tag}: ${errorCode(reason.cause).code ?? "answer cut short"}` })
  }
}

/** Node puts the system code on the error or on its `cause`. */
function errorCode(error: unknown): { code?: string; message: string } {
  let current: unknown = error
  for (let depth = 0; depth < 3 && Predicate.isObject(current); depth++) {
    if (Predicate.hasProperty(current, "code") && Predicate.isString(current.code)) {
      const message = Predicate.hasProperty(current, "message") ? String(current.message) : current.code
      return { code: current.code, message }
    }
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return { message: error instanceof Error ? error.message : "network error" }
}
