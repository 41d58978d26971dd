import { Schema } from "effect"
import { requireEvent, type PublicContext, utf8Bytes } from "./context.ts"
import { decodeOr400, notFound, statusFailure } from "./failure.ts"
import { ok, type Reply, type Route } from "./router.ts"
import type { EventRecord, MomentRecord, Store } from "./store.ts"
import { Overlays } from "./validate-overlay.ts"
import { TimeStampMs } from "./validate-score.ts"
import { momentSingle } from "./views.ts"

/** The sport default recording window around the click, used when the caller gives none. */
const defaultWindow = { beforeMs: 20_000, afterMs: 10_000 }
/** While an event is open only the last minute of footage exists. */
const footageKeptMs = 60_000
const momentMetadataMaxBytes = 500

const Player = Schema.Struct({ id: Schema.optional(Schema.String), name: Schema.optional(Schema.String) })
const ScoreObject = Schema.Struct({ timeStamp: TimeStampMs })
const Metadata = Schema.Record(Schema.String, Schema.Unknown)

const ClickBody = Schema.Struct({
  timeStamp: TimeStampMs,
  startTime: Schema.optional(Schema.Int),
  endTime: Schema.optional(Schema.Int),
  score: Schema.optional(ScoreObject),
  overlays: Schema.optional(Overlays),
  players: Schema.optional(Schema.Array(Player)),
  metadata: Schema.optional(Metadata)
}).check(Schema.makeFilter((c) =>
  c.startTime === undefined || c.endTime === undefined || c.startTime <= c.endTime
    ? undefined
    : { path: ["startTime"], issue: "startTime must not be after endTime" }
))

const MomentPatch = Schema.Struct({
  score: Schema.optional(ScoreObject),
  players: Schema.optional(Schema.Array(Player)),
  metadata: Schema.optional(Metadata)
})

/** Stored as sent: the document calls the click's score "a free dictionary stored as is". */
const rawScore = (body: unknown) => (body as { score?: Readonly<Record<string, unknown>> & { timeStamp: number } }).score

const oversized = (metadata: unknown): boolean => metadata !== undefined && utf8Bytes(metadata) > momentMetadataMaxBytes
const droppedMetadata = "metadata exceeds 500 bytes as UTF-8 JSON and was dropped"

/** The cameras filming the event now: those switched on at its place. A standalone event has none. */
const recordingCameras = (store: Store, event: EventRecord): ReadonlyArray<string> => {
  const placeKey = event.info.placeKey
  return placeKey === undefined ? [] : store.place(event.companyKey, placeKey)?.activeCameras ?? []
}

const click = (ctx: PublicContext, { eventKey }: Readonly<Record<string, string>>): Reply => {
  const event = requireEvent(ctx, eventKey)
  const body = decodeOr400(ClickBody, ctx.body)
  const start = body.startTime ?? body.timeStamp - defaultWindow.beforeMs
  const end = body.endTime ?? Math.max(start, body.timeStamp + defaultWindow.afterMs)
  // The last minute is counted from when the click ARRIVES: a delayed click loses footage, or all of it.
  const footageFrom = event.endTime === undefined ? ctx.now - footageKeptMs : Number.NEGATIVE_INFINITY
  const clipStart = Math.max(start, footageFrom)
  // So are the cameras: each one recording when the click arrives makes one clip; switching later changes nothing.
  const cameras = recordingCameras(ctx.store, event)
  const failure = cameras.length === 0
    ? event.info.placeKey === undefined ? "no camera was recording: the event is not attached to a place" : "no camera was recording when the click arrived"
    : end < footageFrom ? `no footage of the window is left: only the last ${footageKeptMs / 1000} s are kept while the event is open` : undefined
  const score = rawScore(ctx.body)
  const entry = score === undefined ? undefined : ctx.store.addScore(event, score)
  const dropMetadata = oversized(body.metadata)
  // Cameras upload one after the other: the clip of rank r appears clipDelayMs + r × clipSpreadMs after the click.
  const clips = failure !== undefined ? [] : cameras.map((deviceID, rank) => ({
    key: ctx.store.nextKey("cl"), rank, deviceID, startTime: clipStart, endTime: end,
    readyAt: ctx.now + ctx.clipDelayMs + rank * ctx.clipSpreadMs
  }))
  const moment: MomentRecord = {
    key: ctx.store.nextKey("mo"),
    eventKey: event.key,
    companyKey: event.companyKey,
    receivedAt: ctx.now,
    momentStartTime: clipStart,
    clipsReadyAt: clips.at(-1)?.readyAt ?? ctx.now + ctx.clipDelayMs,
    clips,
    ...(failure !== undefined ? { failure } : {}),
    ...(entry !== undefined ? { scoreStreamEntryKey: entry.key, score: entry } : {}),
    players: body.players ?? [],
    ...(body.metadata !== undefined && !dropMetadata ? { metadata: body.metadata } : {})
  }
  event.moments.push(moment)
  ctx.store.moments.set(moment.key, moment)
  return dropMetadata ? { status: 206, body: { momentKey: moment.key, error: droppedMetadata } } : ok({ momentKey: moment.key })
}

const visibleMoment = (ctx: PublicContext, momentKey: string | undefined): MomentRecord => {
  const moment = momentKey === undefined ? undefined : ctx.store.moments.get(momentKey)
  if (moment === undefined || moment.companyKey !== ctx.org.key) throw notFound("moment")
  return moment
}

/** Changes to another organization's moment are a 403 (the document names it), reading it a 404. */
const ownMoment = (ctx: PublicContext, momentKey: string | undefined): MomentRecord => {
  const moment = momentKey === undefined ? undefined : ctx.store.moments.get(momentKey)
  if (moment === undefined) throw notFound("moment")
  if (moment.companyKey !== ctx.org.key) throw statusFailure(403, "the moment is outside what the token may touch")
  return moment
}

const patchMoment = (ctx: PublicContext, { momentKey }: Readonly<Record<string, string>>): Reply => {
  const moment = ownMoment(ctx, momentKey)
  const patch = decodeOr400(MomentPatch, ctx.body)
  const score = rawScore(ctx.body)
  if (score !== undefined) moment.score = { ...score, key: moment.score?.key ?? ctx.store.nextKey("sc") }
  if (patch.players !== undefined) moment.players = patch.players
  const dropMetadata = oversized(patch.metadata)
  if (patch.metadata !== undefined && !dropMetadata) moment.metadata = patch.metadata
  return dropMetadata ? { status: 206, body: { momentKey: moment.key, error: droppedMetadata } } : ok({ momentKey: moment.key })
}

const deleteClip = (ctx: PublicContext, { momentKey, clipKey }: Readonly<Record<string, string>>): Reply => {
  const moment = ownMoment(ctx, momentKey)
  const at = moment.clips.findIndex((c) => c.key === clipKey)
  if (at === -1) throw notFound("clip")
  moment.clips.splice(at, 1)
  return ok({})
}

export const momentRoutes: ReadonlyArray<Route<PublicContext>> = [
  { method: "POST", pattern: "/public/events/:eventKey/clicks", handle: click },
  { method: "GET", pattern: "/public/moments/:momentKey", handle: (ctx, { momentKey }) => ok(momentSingle(visibleMoment(ctx, momentKey), ctx.view)) },
  { method: "PATCH", pattern: "/public/moments/:momentKey", handle: patchMoment },
  { method: "DELETE", pattern: "/public/moments/:momentKey", handle: (ctx, { momentKey }) => { ctx.store.deleteMoment(ownMoment(ctx, momentKey)); return ok({}) } },
  { method: "DELETE", pattern: "/public/moments/:momentKey/clips/:clipKey", handle: deleteClip }
]
