import { Clock, Context, Effect, Layer, Option, Redacted, Ref, Schema } from "effect"
import { HttpClient } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { checkBaseUrl } from "./base-url.ts"
import { serviceHttpAgent } from "./http-agent.ts"
import { UnexpectedResponse, type InvalidBaseUrl, type ServiceError } from "./errors.ts"
import { connectTimeoutMs, makeRequester, shownRequest, type Answer, type Call, type ServerClock } from "./request.ts"
import { makeSuccessWatch } from "./success-watch.ts"
import {
  ActiveEventAnswer,
  ClickAnswer,
  Event,
  EventKeyAnswer,
  KeyAnswer,
  LookupAnswer,
  Moment,
  PartialAnswer,
  PlaceScoreAdded,
  PlaceScoreDropped,
  PlacesAnswer,
  SportsAnswer,
  VideoAnswer,
  type ClickBody,
  type CreateEvent,
  type MomentPatch,
  type Overlay,
  type Place,
  type PlaceScoreAnswer
} from "./schemas.ts"

export type { ServerClock } from "./request.ts"

export interface ServiceClientConfig {
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  /** Per request, including reading the answer. Default 10000. */
  readonly timeoutMs?: number
}

/** Overlay previews take about 30 s, up to a minute on the first call. */
const overlayPreviewTimeoutMs = 90_000

/** Built once: a schema made per call would be compiled (and cached) again on every score. */
const PlaceScoreAnswerBody = Schema.Union([PlaceScoreAdded, PlaceScoreDropped])

export class ServiceClient extends Context.Service<ServiceClient, {
  readonly sports: Effect.Effect<ReadonlyArray<string>, ServiceError>
  places(companyKey: string): Effect.Effect<ReadonlyArray<Place>, ServiceError>
  /** None when no event is active on the place (404). */
  activeEventKey(placeKey: string): Effect.Effect<Option.Option<string>, ServiceError>
  postPlaceScore(placeKey: string, entry: ScoreEntry): Effect.Effect<PlaceScoreAnswer, ServiceError>
  postEventScore(eventKey: string, entry: ScoreEntry): Effect.Effect<{ readonly key: string }, ServiceError>
  deleteEventScore(eventKey: string, scoreKey: string): Effect.Effect<void, ServiceError>
  getEvent(eventKey: string): Effect.Effect<Event, ServiceError>
  createEvent(externalID: string, body: CreateEvent): Effect.Effect<{ readonly eventKey: string }, ServiceError>
  patchEvent(eventKey: string, body: Partial<CreateEvent>): Effect.Effect<void, ServiceError>
  deleteEvent(eventKey: string): Effect.Effect<void, ServiceError>
  closeEvent(eventKey: string): Effect.Effect<void, ServiceError>
  /** The event that started on the place within the hour of `at` (UTC); None when nothing matches. */
  lookupEvent(placeKey: string, at: Date): Effect.Effect<Option.Option<string>, ServiceError>
  /** `error` is set when the service answered 206: the moment exists but some data was not accepted. */
  postClick(eventKey: string, click: ClickBody): Effect.Effect<{ readonly momentKey: string; readonly error?: string }, ServiceError>
  getMoment(momentKey: string): Effect.Effect<Moment, ServiceError>
  patchMoment(momentKey: string, body: MomentPatch): Effect.Effect<{ readonly error?: string }, ServiceError>
  deleteMoment(momentKey: string): Effect.Effect<void, ServiceError>
  deleteClip(momentKey: string, clipKey: string): Effect.Effect<void, ServiceError>
  overlayPreview(overlays: ReadonlyArray<Overlay>, sourceURL?: string): Effect.Effect<{ readonly videoURL: string }, ServiceError>
  /** The last answer's `Date` header with local time and latency; None until an answer carried one. */
  readonly lastServerDate: Effect.Effect<Option.Option<ServerClock>>
  /** When any request last got a 2xx answer (ms); -Infinity before the first. */
  readonly lastSuccessAt: Effect.Effect<number>
  /** Completes once any request got a 2xx answer at or after `at` (ms): at once if one already did. */
  successSince(at: number): Effect.Effect<void>
}>()("scorebridge/service/ServiceClient") {
  static readonly layer = (config: ServiceClientConfig): Layer.Layer<ServiceClient, InvalidBaseUrl> => {
    const timeoutMs = config.timeoutMs ?? 10_000
    return Layer.effect(ServiceClient, make(config, timeoutMs)).pipe(
      Layer.provide(NodeHttpClient.layerNodeHttpNoAgent),
      Layer.provide(serviceHttpAgent(connectTimeoutMs(timeoutMs)))
    )
  }
}

const segment = encodeURIComponent

const make = Effect.fnUntraced(function*(config: ServiceClientConfig, timeoutMs: number) {
  const baseUrl = checkBaseUrl(config.baseUrl)
  if (!(baseUrl instanceof URL)) return yield* baseUrl
  const http = yield* HttpClient.HttpClient
  const lastServerClock = yield* Ref.make(Option.none<ServerClock>())
  const successes = makeSuccessWatch()
  const request = makeRequester(http, { baseUrl, token: config.token, timeoutMs, connectTimeoutMs: connectTimeoutMs(timeoutMs), lastServerClock })
  const send = (c: Call) =>
    request(c).pipe(Effect.tap(() => Effect.map(Clock.currentTimeMillis, (now) => successes.record(now))))

  /** Sends and decodes a 2xx body; a body that does not fit was still applied, so it is not retryable. */
  const call = <S extends Schema.Top & { readonly DecodingServices: never }>(c: Call, schema: S) =>
    send(c).pipe(Effect.flatMap((answer) => decodeAnswer(c, answer, schema)))
  const done = (c: Call) => Effect.asVoid(send(c))

  const event = (eventKey: string) => `/public/events/${segment(eventKey)}`
  const moment = (momentKey: string) => `/public/moments/${segment(momentKey)}`
  const place = (placeKey: string) => `/public/places/${segment(placeKey)}`

  return ServiceClient.of({
    sports: call({ method: "GET", path: "/public/sports" }, SportsAnswer).pipe(
      Effect.map((a) => ("sports" in a ? a.sports : a)),
      Effect.withSpan("ServiceClient.sports")
    ),

    places: Effect.fn("ServiceClient.places")(function*(companyKey: string) {
      const answer = yield* call({ method: "GET", path: "/public/places", query: { companyKey } }, PlacesAnswer)
      return answer.places
    }),

    activeEventKey: Effect.fn("ServiceClient.activeEventKey")(function*(placeKey: string) {
      const answer = yield* call({ method: "GET", path: `${place(placeKey)}/activeEventKey` }, ActiveEventAnswer).pipe(
        Effect.map((a) => Option.fromUndefinedOr(a.activeEventKey)),
        Effect.catchTag("NotFound", () => Effect.succeedNone)
      )
      return answer
    }),

    postPlaceScore: Effect.fn("ServiceClient.postPlaceScore")(function*(placeKey: string, entry: ScoreEntry) {
      const answer = yield* call(
        { method: "POST", path: `${place(placeKey)}/score`, body: entry },
        PlaceScoreAnswerBody
      )
      return "warning" in answer
        ? { _tag: "NoEvent" as const, warning: answer.warning }
        : { _tag: "Added" as const, eventKey: answer.eventKey, key: answer.key }
    }),

    postEventScore: Effect.fn("ServiceClient.postEventScore")(function*(eventKey: string, entry: ScoreEntry) {
      return yield* call({ method: "POST", path: `${event(eventKey)}/score`, body: entry }, KeyAnswer)
    }),

    deleteEventScore: Effect.fn("ServiceClient.deleteEventScore")(function*(eventKey: string, scoreKey: string) {
      yield* done({ method: "DELETE", path: `${event(eventKey)}/score/${segment(scoreKey)}` })
    }),

    getEvent: Effect.fn("ServiceClient.getEvent")(function*(eventKey: string) {
      return yield* call({ method: "GET", path: event(eventKey) }, Event)
    }),

    createEvent: Effect.fn("ServiceClient.createEvent")(function*(externalID: string, body: CreateEvent) {
      return yield* call({ method: "POST", path: event(externalID), body }, EventKeyAnswer)
    }),

    patchEvent: Effect.fn("ServiceClient.patchEvent")(function*(eventKey: string, body: Partial<CreateEvent>) {
      yield* done({ method: "PATCH", path: event(eventKey), body })
    }),

    deleteEvent: Effect.fn("ServiceClient.deleteEvent")(function*(eventKey: string) {
      yield* done({ method: "DELETE", path: event(eventKey) })
    }),

    closeEvent: Effect.fn("ServiceClient.closeEvent")(function*(eventKey: string) {
      yield* done({ method: "POST", path: `${event(eventKey)}/close` })
    }),

    lookupEvent: Effect.fn("ServiceClient.lookupEvent")(function*(placeKey: string, at: Date) {
      const query = {
        placeKey,
        year: String(at.getUTCFullYear()),
        month: String(at.getUTCMonth() + 1),
        day: String(at.getUTCDate()),
        hour: String(at.getUTCHours())
      }
      // What the service answers when nothing matches is not documented: both an empty answer and 404 mean "none".
      return yield* call({ method: "GET", path: "/public/event-lookup-by-place-and-time", query }, LookupAnswer).pipe(
        Effect.map((a) => Option.fromUndefinedOr(a.eventKey)),
        Effect.catchTag("NotFound", () => Effect.succeedNone)
      )
    }),

    postClick: Effect.fn("ServiceClient.postClick")(function*(eventKey: string, click: ClickBody) {
      return yield* call({ method: "POST", path: `${event(eventKey)}/clicks`, body: click }, ClickAnswer)
    }),

    getMoment: Effect.fn("ServiceClient.getMoment")(function*(momentKey: string) {
      return yield* call({ method: "GET", path: moment(momentKey) }, Moment)
    }),

    patchMoment: Effect.fn("ServiceClient.patchMoment")(function*(momentKey: string, body: MomentPatch) {
      return yield* call({ method: "PATCH", path: moment(momentKey), body }, PartialAnswer)
    }),

    deleteMoment: Effect.fn("ServiceClient.deleteMoment")(function*(momentKey: string) {
      yield* done({ method: "DELETE", path: moment(momentKey) })
    }),

    deleteClip: Effect.fn("ServiceClient.deleteClip")(function*(momentKey: string, clipKey: string) {
      yield* done({ method: "DELETE", path: `${moment(momentKey)}/clips/${segment(clipKey)}` })
    }),

    overlayPreview: Effect.fn("ServiceClient.overlayPreview")(function*(overlays: ReadonlyArray<Overlay>, sourceURL?: string) {
      const body = sourceURL === undefined ? { overlays } : { overlays, sourceURL }
      return yield* call(
        { method: "POST", path: "/public/overlay-preview", body, timeoutMs: Math.max(timeoutMs, overlayPreviewTimeoutMs) },
        VideoAnswer
      )
    }),

    lastServerDate: Ref.get(lastServerClock),
    lastSuccessAt: successes.lastAt,
    successSince: successes.successSince
  })
})

function decodeAnswer<S extends Schema.Top & { readonly DecodingServices: never }>(
  c: Call,
  answer: Answer,
  schema: S
): Effect.Effect<S["Type"], UnexpectedResponse> {
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
