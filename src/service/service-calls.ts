import { Clock, Context, Effect, Layer, Option, Redacted, Ref, Schema } from "effect"
import { HttpClient } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { checkBaseUrl } from "./base-url.ts"
import { UnexpectedResponse, type InvalidBaseUrl, type ServiceError } from "./errors.ts"
import { serviceHttpAgent } from "./http-agent.ts"
import { connectTimeoutMs, makeRequester, shownRequest, type Answer, type Call, type ServerClock } from "./request.ts"
import { makeSuccessWatch } from "./success-watch.ts"

export interface ServiceClientConfig {
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  /** Per request, including reading the answer. Default 10000. */
  readonly timeoutMs?: number
}

type Decodable = Schema.Top & { readonly DecodingServices: never }

/**
 * Requests to the highlights service over one connection pool, with what every answer tells:
 * the service's clock and when it last answered with success. The daemon's calls
 * (`ServiceClient`) are made of these, and so are the tests' calls of endpoints the daemon
 * never uses.
 */
export class ServiceCalls extends Context.Service<ServiceCalls, {
  /** Sends and decodes a 2xx body; a body that does not fit was still applied, so it is not retryable. */
  call<S extends Decodable>(call: Call, schema: S): Effect.Effect<S["Type"], ServiceError>
  /** Sends; any 2xx answer will do. */
  done(call: Call): Effect.Effect<void, ServiceError>
  /** The configured per-request timeout (ms). */
  readonly timeoutMs: number
  readonly lastServerDate: Effect.Effect<Option.Option<ServerClock>>
  readonly lastSuccessAt: Effect.Effect<number>
  successSince(at: number): Effect.Effect<void>
}>()("scorebridge/service/ServiceCalls") {
  static readonly layer = (config: ServiceClientConfig): Layer.Layer<ServiceCalls, InvalidBaseUrl> => {
    const timeoutMs = config.timeoutMs ?? 10_000
    return Layer.effect(ServiceCalls, make(config, timeoutMs)).pipe(
      Layer.provide(NodeHttpClient.layerNodeHttpNoAgent),
      Layer.provide(serviceHttpAgent(connectTimeoutMs(timeoutMs)))
    )
  }
}

const make = Effect.fnUntraced(function*(config: ServiceClientConfig, timeoutMs: number) {
  const baseUrl = checkBaseUrl(config.baseUrl)
  if (!(baseUrl instanceof URL)) return yield* baseUrl
  const http = yield* HttpClient.HttpClient
  const lastServerClock = yield* Ref.make(Option.none<ServerClock>())
  const successes = makeSuccessWatch()
  const request = makeRequester(http, { baseUrl, token: config.token, timeoutMs, connectTimeoutMs: connectTimeoutMs(timeoutMs), lastServerClock })
  const send = (c: Call) =>
    request(c).pipe(Effect.tap(() => Effect.map(Clock.currentTimeMillis, (now) => successes.record(now))))
  return ServiceCalls.of({
    call: (c, schema) => send(c).pipe(Effect.flatMap((answer) => decodeAnswer(c, answer, schema))),
    done: (c) => Effect.asVoid(send(c)),
    timeoutMs,
    lastServerDate: Ref.get(lastServerClock),
    lastSuccessAt: successes.lastAt,
    successSince: successes.successSince
  })
})

function decodeAnswer<S extends Decodable>(c: Call, answer: Answer, schema: S): Effect.Effect<S["Type"], UnexpectedResponse> {
  return Schema.decodeUnknownEffect(schema)(answer.body).pipe(
    Effect.mapError((issue) =>
      new UnexpectedResponse({
        ...shownRequest(c),
        status: answer.status,
        detail: `answer did not match the contract: ${issue.message.slice(0, 300)}`
      })
    )
  )
}

/** A path segment, encoded. */
export const segment = encodeURIComponent
export const eventPath = (eventKey: string) => `/public/events/${segment(eventKey)}`
export const momentPath = (momentKey: string) => `/public/moments/${segment(momentKey)}`
export const placePath = (placeKey: string) => `/public/places/${segment(placeKey)}`
