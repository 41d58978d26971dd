import { authorizeCompanyKey, requireEvent, requirePlace, type PublicContext } from "./context.ts"
import { badField, decodeOr400, type FieldError, invalid, notFound, statusFailure } from "./failure.ts"
import { ok, type Route } from "./router.ts"
import { type EventInfo, type EventRecord, isOpen } from "./store.ts"
import { validateScoreEntry } from "./validate-score.ts"
import { EventCreateBody, EventPatchBody, scheduleErrors, validExternalID } from "./validate-event.ts"
import { eventFull } from "./views.ts"

/** `companyKey` is checked before anything else in the body: a foreign organization is a 401, not a 400. */
const bodyCompanyKey = (body: unknown): unknown =>
  typeof body === "object" && body !== null ? (body as { companyKey?: unknown }).companyKey : undefined

const createEvent = (ctx: PublicContext, { eventKey: externalID = "" }: Readonly<Record<string, string>>) => {
  authorizeCompanyKey(ctx, bodyCompanyKey(ctx.body))
  if (!validExternalID(externalID)) {
    throw badField("externalID", "only ASCII letters, digits, '-' and '_', at most 64 bytes")
  }
  const body = decodeOr400(EventCreateBody, ctx.body)
  const place = body.placeKey === undefined ? undefined : requirePlace(ctx, body.placeKey)
  const errors: Array<FieldError> = []
  const hasTimes = body.scheduledStartTime !== undefined || body.scheduledEndTime !== undefined
  if (place === undefined && body.location === undefined) {
    errors.push({ field: "location", message: "location is required unless placeKey is given" })
  }
  if (place === undefined && hasTimes) {
    errors.push({ field: "placeKey", message: "scheduled times need a placeKey" })
  }
  if (place !== undefined && !hasTimes) {
    errors.push({ field: "scheduledStartTime", message: "scheduledStartTime and scheduledEndTime are required with placeKey" })
  }
  errors.push(...scheduleErrors(body.scheduledStartTime, body.scheduledEndTime, ctx.now))
  if (errors.length > 0) throw invalid(errors)

  const existing = ctx.store.events.find((e) => e.companyKey === ctx.org.key && e.externalID === externalID)
  if (existing !== undefined) {
    if (existing.endTime === undefined) throw statusFailure(409, "externalID is already used by an open event")
    const placeKey = existing.info.placeKey
    if (placeKey !== undefined && ctx.store.activeEvent(placeKey) !== undefined) {
      throw statusFailure(409, "another event is open on the event's place")
    }
    delete existing.endTime
    return ok({ eventKey: existing.key })
  }
  const { companyKey: _companyKey, ...fields } = body
  const info: EventInfo = {
    ...fields,
    sport: body.sport ?? place?.sport ?? "other",
    pinCode: body.pinCode ?? -1,
    cameraPinCode: body.cameraPinCode ?? -1,
    location: body.location ?? place?.location
  }
  const event: EventRecord = {
    key: ctx.store.nextKey("ev"),
    externalID,
    companyKey: ctx.org.key,
    creationDate: ctx.now,
    info,
    // A standalone event has no schedule, so it runs from creation; a place's event starts at its scheduled time.
    ...(place === undefined ? { startTime: ctx.now } : {}),
    scoreStream: [],
    moments: []
  }
  ctx.store.events.push(event)
  return ok({ eventKey: event.key })
}

const patchEvent = (ctx: PublicContext, { eventKey }: Readonly<Record<string, string>>) => {
  authorizeCompanyKey(ctx, bodyCompanyKey(ctx.body))
  const event = requireEvent(ctx, eventKey)
  const patch = decodeOr400(EventPatchBody, ctx.body)
  const current = event.info
  const errors: Array<FieldError> = []
  if (patch.placeKey !== undefined && patch.placeKey !== current.placeKey) {
    requirePlace(ctx, patch.placeKey)
    if (current.scheduledStartTime !== undefined && current.scheduledStartTime <= ctx.now) {
      errors.push({ field: "placeKey", message: "placeKey cannot change once scheduledStartTime has passed" })
    }
  }
  if (patch.scheduledStartTime !== undefined || patch.scheduledEndTime !== undefined) {
    const started = event.startTime !== undefined || [current.scheduledStartTime, current.scheduledEndTime].some((t) => t !== undefined && t <= ctx.now)
    if (started) errors.push({ field: "scheduledStartTime", message: "scheduled times can change only while both are in the future" })
    if ((patch.placeKey ?? current.placeKey) === undefined) errors.push({ field: "placeKey", message: "scheduled times need a placeKey" })
    errors.push(...scheduleErrors(patch.scheduledStartTime ?? current.scheduledStartTime, patch.scheduledEndTime ?? current.scheduledEndTime, ctx.now))
  }
  if (errors.length > 0) throw invalid(errors)
  const { companyKey: _companyKey, ...fields } = patch
  event.info = { ...current, ...fields }
  return ok({ eventKey: event.key })
}

const deleteEvent = (ctx: PublicContext, { eventKey }: Readonly<Record<string, string>>) => {
  const event = requireEvent(ctx, eventKey)
  if (isOpen(event)) throw statusFailure(417, "the event is still running")
  ctx.store.deleteEvent(event)
  return ok({})
}

const closeEvent = (ctx: PublicContext, { eventKey }: Readonly<Record<string, string>>) => {
  const event = requireEvent(ctx, eventKey)
  if (event.endTime === undefined) {
    event.startTime ??= ctx.now
    event.endTime = ctx.now
  }
  return ok({})
}

/** Accepted for closed events as well: a backlog delayed by an outage may arrive after the match. */
const addEventScore = (ctx: PublicContext, { eventKey }: Readonly<Record<string, string>>) => {
  const event = requireEvent(ctx, eventKey)
  const entry = ctx.store.addScore(event, validateScoreEntry(event.info.sport, ctx.body))
  return ok({ key: entry.key })
}

const deleteEventScore = (ctx: PublicContext, { eventKey, scoreKey }: Readonly<Record<string, string>>) => {
  const event = requireEvent(ctx, eventKey)
  const at = event.scoreStream.findIndex((e) => e.key === scoreKey)
  if (at === -1) throw notFound("score entry")
  event.scoreStream.splice(at, 1)
  return ok({})
}

export const eventRoutes: ReadonlyArray<Route<PublicContext>> = [
  { method: "POST", pattern: "/public/events/:eventKey", handle: createEvent },
  { method: "GET", pattern: "/public/events/:eventKey", handle: (ctx, { eventKey }) => ok(eventFull(requireEvent(ctx, eventKey), ctx.view)) },
  { method: "PATCH", pattern: "/public/events/:eventKey", handle: patchEvent },
  { method: "DELETE", pattern: "/public/events/:eventKey", handle: deleteEvent },
  { method: "POST", pattern: "/public/events/:eventKey/close", handle: closeEvent },
  { method: "POST", pattern: "/public/events/:eventKey/score", handle: addEventScore },
  { method: "DELETE", pattern: "/public/events/:eventKey/score/:scoreKey", handle: deleteEventScore }
]
