import { Context, Effect, Layer, Option, Schema } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { InvalidBaseUrl, ServiceError } from "./errors.ts"
import type { ServerClock } from "./request.ts"
import { eventPath, momentPath, placePath, ServiceCalls, type ServiceClientConfig } from "./service-calls.ts"
import {
  ActiveEventAnswer,
  ClickAnswer,
  Event,
  KeyAnswer,
  Moment,
  PlaceScoreAdded,
  PlaceScoreDropped,
  PlacesAnswer,
  SportsAnswer,
  VideoAnswer,
  type ClickBody,
  type Overlay,
  type Place,
  type PlaceScoreAnswer
} from "./schemas.ts"

export type { ServerClock } from "./request.ts"
export type { ServiceClientConfig } from "./service-calls.ts"

/** Overlay previews take about 30 s, up to a minute on the first call. */
const overlayPreviewTimeoutMs = 90_000

/** Built once: a schema made per call would be compiled (and cached) again on every score. */
const PlaceScoreAnswerBody = Schema.Union([PlaceScoreAdded, PlaceScoreDropped])

/**
 * What the bridge asks of the highlights service: the daemon's look-ups, deliveries, read-backs
 * and clip follow-up, and the overlay-preview command. Calls of endpoints the bridge never makes
 * (creating, patching or closing events, look-ups by time, …) belong to the tests (test/service).
 */
export class ServiceClient extends Context.Service<ServiceClient, {
  readonly sports: Effect.Effect<ReadonlyArray<string>, ServiceError>
  places(companyKey: string): Effect.Effect<ReadonlyArray<Place>, ServiceError>
  /** None when no event is active on the place (404). */
  activeEventKey(placeKey: string): Effect.Effect<Option.Option<string>, ServiceError>
  postPlaceScore(placeKey: string, entry: ScoreEntry): Effect.Effect<PlaceScoreAnswer, ServiceError>
  postEventScore(eventKey: string, entry: ScoreEntry): Effect.Effect<{ readonly key: string }, ServiceError>
  getEvent(eventKey: string): Effect.Effect<Event, ServiceError>
  /** `error` is set when the service answered 206: the moment exists but some data was not accepted. */
  postClick(eventKey: string, click: ClickBody): Effect.Effect<{ readonly momentKey: string; readonly error?: string }, ServiceError>
  getMoment(momentKey: string): Effect.Effect<Moment, ServiceError>
  deleteMoment(momentKey: string): Effect.Effect<void, ServiceError>
  overlayPreview(overlays: ReadonlyArray<Overlay>, sourceURL?: string): Effect.Effect<{ readonly videoURL: string }, ServiceError>
  /** The last answer's `Date` header with local time and latency; None until an answer carried one. */
  readonly lastServerDate: Effect.Effect<Option.Option<ServerClock>>
  /** When any request last got a 2xx answer (ms); -Infinity before the first. */
  readonly lastSuccessAt: Effect.Effect<number>
  /** Completes once any request got a 2xx answer at or after `at` (ms): at once if one already did. */
  successSince(at: number): Effect.Effect<void>
}>()("scorebridge/service/ServiceClient") {
  /** On calls made elsewhere: for the tests, which add their own calls on the same connection pool. */
  static readonly onCalls: Layer.Layer<ServiceClient, never, ServiceCalls> = Layer.effect(
    ServiceClient,
    Effect.gen(function*() {
      const calls = yield* ServiceCalls
      return ServiceClient.of({ ...lookups(calls), ...deliveries(calls), ...health(calls) })
    })
  )

  static readonly layer = (config: ServiceClientConfig): Layer.Layer<ServiceClient, InvalidBaseUrl> =>
    ServiceClient.onCalls.pipe(Layer.provide(ServiceCalls.layer(config)))
}

type Calls = ServiceCalls["Service"]

/** What the service knows of sports, places, events and moments. */
const lookups = ({ call }: Calls) => ({
  sports: call({ method: "GET", path: "/public/sports" }, SportsAnswer).pipe(
    Effect.map((a) => ("sports" in a ? a.sports : a)),
    Effect.withSpan("ServiceClient.sports")
  ),

  places: Effect.fn("ServiceClient.places")(function*(companyKey: string) {
    const answer = yield* call({ method: "GET", path: "/public/places", query: { companyKey } }, PlacesAnswer)
    return answer.places
  }),

  activeEventKey: Effect.fn("ServiceClient.activeEventKey")(function*(placeKey: string) {
    return yield* call({ method: "GET", path: `${placePath(placeKey)}/activeEventKey` }, ActiveEventAnswer).pipe(
      Effect.map((a) => Option.fromUndefinedOr(a.activeEventKey)),
      Effect.catchTag("NotFound", () => Effect.succeedNone)
    )
  }),

  getEvent: Effect.fn("ServiceClient.getEvent")(function*(eventKey: string) {
    return yield* call({ method: "GET", path: eventPath(eventKey) }, Event)
  }),

  getMoment: Effect.fn("ServiceClient.getMoment")(function*(momentKey: string) {
    return yield* call({ method: "GET", path: momentPath(momentKey) }, Moment)
  })
})

/** What the bridge sends: scores, clicks and the undo of a click, and overlay previews. */
const deliveries = ({ call, done, timeoutMs }: Calls) => ({
  postPlaceScore: Effect.fn("ServiceClient.postPlaceScore")(function*(placeKey: string, entry: ScoreEntry) {
    const answer = yield* call({ method: "POST", path: `${placePath(placeKey)}/score`, body: entry }, PlaceScoreAnswerBody)
    return "warning" in answer
      ? { _tag: "NoEvent" as const, warning: answer.warning }
      : { _tag: "Added" as const, eventKey: answer.eventKey, key: answer.key }
  }),

  postEventScore: Effect.fn("ServiceClient.postEventScore")(function*(eventKey: string, entry: ScoreEntry) {
    return yield* call({ method: "POST", path: `${eventPath(eventKey)}/score`, body: entry }, KeyAnswer)
  }),

  postClick: Effect.fn("ServiceClient.postClick")(function*(eventKey: string, click: ClickBody) {
    return yield* call({ method: "POST", path: `${eventPath(eventKey)}/clicks`, body: click }, ClickAnswer)
  }),

  deleteMoment: Effect.fn("ServiceClient.deleteMoment")(function*(momentKey: string) {
    yield* done({ method: "DELETE", path: momentPath(momentKey) })
  }),

  overlayPreview: Effect.fn("ServiceClient.overlayPreview")(function*(overlays: ReadonlyArray<Overlay>, sourceURL?: string) {
    const body = sourceURL === undefined ? { overlays } : { overlays, sourceURL }
    return yield* call(
      { method: "POST", path: "/public/overlay-preview", body, timeoutMs: Math.max(timeoutMs, overlayPreviewTimeoutMs) },
      VideoAnswer
    )
  })
})

/** What the answers told: the service's clock and its last success. */
const health = ({ lastServerDate, lastSuccessAt, successSince }: Calls) => ({ lastServerDate, lastSuccessAt, successSince })
