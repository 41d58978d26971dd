import { Schema } from "effect"
import { badField, decodeOr400, invalid, notFound, statusFailure } from "./failure.ts"
import { type FaultBook, FaultSpec } from "./faults.ts"
import type { RateLimiter } from "./rate-limit.ts"
import type { Recorder } from "./recorder.ts"
import { ok, type Route } from "./router.ts"
import type { EventRecord, Place, Store } from "./store.ts"
import { validExternalID } from "./validate-event.ts"
import { eventFull, momentInEvent, placeView, type ViewContext } from "./views.ts"

/** What `/_control/` handlers see: the whole simulator, no caller identity. */
export interface ControlContext {
  readonly store: Store
  readonly faults: FaultBook
  readonly recorder: Recorder
  readonly limiter: RateLimiter
  readonly now: number
  readonly query: URLSearchParams
  readonly body: unknown
  readonly view: ViewContext
}

const StartEventBody = Schema.Struct({
  externalID: Schema.optional(Schema.String),
  homeTeam: Schema.optional(Schema.String),
  awayTeam: Schema.optional(Schema.String),
  name: Schema.optional(Schema.NonEmptyString)
})

const RateBody = Schema.Struct({
  requestsPerSecond: Schema.Finite.check(Schema.isGreaterThan(0)),
  burst: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(1))
})

/** The whole set of cameras to keep recording; `[]` switches them all off. */
const CamerasBody = Schema.Struct({ active: Schema.Array(Schema.NonEmptyString) })

const controlPlace = (ctx: ControlContext, placeKey: string | undefined) => {
  const place = ctx.store.places.find((p) => p.key === placeKey)
  if (place === undefined) throw notFound("place")
  return place
}

/** Starts a live event now, as a venue operator would; an existing closed event with the id is reopened. */
const startEvent = (ctx: ControlContext, { placeKey }: Readonly<Record<string, string>>) => {
  const place = controlPlace(ctx, placeKey)
  const body = decodeOr400(StartEventBody, ctx.body ?? {})
  if (ctx.store.activeEvent(place.key) !== undefined) throw statusFailure(409, "an event is already open on the place")
  const externalID = body.externalID ?? ctx.store.nextKey(`${place.key}-match-`)
  if (!validExternalID(externalID)) throw badField("externalID", "only ASCII letters, digits, '-' and '_', at most 64 bytes")
  const existing = ctx.store.events.find((e) => e.companyKey === place.companyKey && e.externalID === externalID)
  if (existing !== undefined) {
    if (existing.endTime === undefined) throw statusFailure(409, "externalID is already used by an open event")
    delete existing.endTime
    existing.info.placeKey = place.key
    return ok({ eventKey: existing.key, externalID })
  }
  const event: EventRecord = {
    key: ctx.store.nextKey("ev"),
    externalID,
    companyKey: place.companyKey,
    creationDate: ctx.now,
    info: {
      name: body.name ?? `${body.homeTeam ?? "Home"} vs ${body.awayTeam ?? "Away"}`,
      placeKey: place.key,
      sport: place.sport,
      pinCode: -1,
      cameraPinCode: -1,
      ...(body.homeTeam !== undefined ? { homeTeam: body.homeTeam } : {}),
      ...(body.awayTeam !== undefined ? { awayTeam: body.awayTeam } : {}),
      ...(place.location !== undefined ? { location: place.location } : {})
    },
    startTime: ctx.now,
    scoreStream: [],
    moments: []
  }
  ctx.store.events.push(event)
  return ok({ eventKey: event.key, externalID })
}

const closeEvent = (ctx: ControlContext, { placeKey }: Readonly<Record<string, string>>) => {
  const event = ctx.store.activeEvent(controlPlace(ctx, placeKey).key)
  if (event === undefined) throw notFound("open event")
  event.endTime = ctx.now
  return ok({ eventKey: event.key })
}

const camerasView = (place: Place) => ({ placeKey: place.key, cameras: place.cameras, activeCameras: place.activeCameras })

/** Switches cameras on and off; a click then gets one clip per camera on when it arrives. */
const setCameras = (ctx: ControlContext, { placeKey }: Readonly<Record<string, string>>) => {
  const place = controlPlace(ctx, placeKey)
  const { active } = decodeOr400(CamerasBody, ctx.body)
  const errors = active.flatMap((camera, i) =>
    !place.cameras.includes(camera) ? [{ field: `active[${i}]`, message: `unknown camera "${camera}"; the place has ${place.cameras.join(", ") || "none"}` }]
    : active.indexOf(camera) !== i ? [{ field: `active[${i}]`, message: `duplicate camera "${camera}"` }]
    : [])
  if (errors.length > 0) throw invalid(errors)
  place.activeCameras = place.cameras.filter((c) => active.includes(c))
  return ok(camerasView(place))
}

/** The whole state, including what the public API hides (why a moment failed, when its clips appear). */
const state = (ctx: ControlContext) => ok({
  organizations: ctx.store.organizations.map((org) => ({
    ...org,
    places: ctx.store.places.filter((p) => p.companyKey === org.key).map((p) => ({
      ...placeView(p, ctx.store.activeEvent(p.key)?.key),
      cameras: p.cameras,
      activeCameras: p.activeCameras
    }))
  })),
  events: ctx.store.events.map((e) => ({
    ...eventFull(e, ctx.view),
    moments: e.moments.map((m) => ({
      ...momentInEvent(m, ctx.view),
      eventKey: m.eventKey,
      receivedAt: m.receivedAt,
      clipsReadyAt: m.clipsReadyAt,
      failure: m.failure
    }))
  })),
  rate: ctx.limiter.rate
})

const requests = (ctx: ControlContext) => {
  const status = ctx.query.get("status")
  return ok(ctx.recorder.list({
    ...(ctx.query.has("method") ? { method: ctx.query.get("method") ?? "" } : {}),
    ...(ctx.query.has("pathPrefix") ? { pathPrefix: ctx.query.get("pathPrefix") ?? "" } : {}),
    ...(status !== null ? { status: Number(status) } : {})
  }))
}

const RevokeBody = Schema.Struct({ token: Schema.NonEmptyString })

/** Revokes a token, as an organization's admin would at the service: its calls answer 401 from then on. */
const revokeToken = (ctx: ControlContext) => {
  if (!ctx.store.revokeToken(decodeOr400(RevokeBody, ctx.body).token)) throw notFound("token")
  return ok({})
}

export const controlRoutes: ReadonlyArray<Route<ControlContext>> = [
  { method: "POST", pattern: "/_control/places/:placeKey/start-event", handle: startEvent },
  { method: "POST", pattern: "/_control/places/:placeKey/close-event", handle: closeEvent },
  { method: "PUT", pattern: "/_control/places/:placeKey/cameras", handle: setCameras },
  { method: "POST", pattern: "/_control/faults", handle: (ctx) => { ctx.faults.add(decodeOr400(FaultSpec, ctx.body), ctx.now); return ok({}) } },
  { method: "DELETE", pattern: "/_control/faults", handle: (ctx) => { ctx.faults.clear(); return ok({}) } },
  { method: "GET", pattern: "/_control/requests", handle: requests },
  { method: "DELETE", pattern: "/_control/requests", handle: (ctx) => { ctx.recorder.clear(); return ok({}) } },
  { method: "GET", pattern: "/_control/state", handle: state },
  { method: "PUT", pattern: "/_control/rate", handle: (ctx) => { ctx.limiter.setRate(decodeOr400(RateBody, ctx.body)); return ok({}) } },
  { method: "POST", pattern: "/_control/tokens/revoke", handle: revokeToken }
]
