import type { EventRecord, MomentRecord, Place, VideoClip } from "./store.ts"

/** Views turn records into the document's response shapes. `mediaBase` is where fake media URLs point. */
export interface ViewContext {
  readonly now: number
  readonly mediaBase: string
}

/** `processing` until generation ends, like the service, where a positive click answer promises nothing yet. */
const momentStatus = (m: MomentRecord, now: number): string =>
  now < m.clipsReadyAt ? "processing" : m.failure !== undefined ? "failed" : "ready"

const clipView = (clip: VideoClip, ctx: ViewContext) => ({
  key: clip.key,
  rank: clip.rank,
  deviceID: clip.deviceID,
  thumbnailURL: `${ctx.mediaBase}/clips/${clip.key}.jpg`,
  videoURL: `${ctx.mediaBase}/clips/${clip.key}.mp4`,
  downloadURL: `${ctx.mediaBase}/clips/${clip.key}.mp4?download=1`,
  shortUrl: `${ctx.mediaBase}/s/${clip.key}`,
  views: 0,
  orientation: "landscape",
  thumbnailSizes: "320x180",
  startTime: clip.startTime,
  endTime: clip.endTime
})

const visibleClips = (m: MomentRecord, ctx: ViewContext) =>
  m.clips.filter((c) => ctx.now >= c.readyAt).map((c) => clipView(c, ctx))

export const momentInEvent = (m: MomentRecord, ctx: ViewContext) => ({
  key: m.key,
  momentStatus: momentStatus(m, ctx.now),
  momentStartTime: m.momentStartTime,
  scoreStreamEntryKey: m.scoreStreamEntryKey,
  videoClips: visibleClips(m, ctx),
  players: m.players,
  metadata: m.metadata
})

export const momentSingle = (m: MomentRecord, ctx: ViewContext) => ({
  key: m.key,
  eventKey: m.eventKey,
  momentStatus: momentStatus(m, ctx.now),
  momentStartTime: m.momentStartTime,
  score: m.score,
  videoClips: visibleClips(m, ctx),
  players: m.players,
  metadata: m.metadata
})

export const eventShort = (e: EventRecord) => ({
  key: e.key,
  externalEventID: e.externalID,
  name: e.info.name,
  creationDate: e.creationDate,
  scheduledStartTime: e.info.scheduledStartTime,
  scheduledEndTime: e.info.scheduledEndTime,
  announcedTime: e.info.scheduledStartTime,
  startTime: e.startTime,
  endTime: e.endTime,
  description: e.info.description,
  thumbnailURL: e.info.thumbnailURL,
  metadata: e.info.metadata
})

export const eventFull = (e: EventRecord, ctx: ViewContext) => ({
  ...eventShort(e),
  companyKey: e.companyKey,
  notSearchable: e.info.notSearchable ?? false,
  placeKey: e.info.placeKey,
  homeTeam: e.info.homeTeam,
  awayTeam: e.info.awayTeam,
  shortInviteUrl: `${ctx.mediaBase}/s/${e.key}`,
  sport: e.info.sport,
  pinCode: e.info.pinCode,
  cameraPinCode: e.info.cameraPinCode,
  scoreSupported: true,
  score: e.scoreStream.at(-1),
  scoreStream: e.scoreStream,
  location: e.info.location,
  moments: e.moments.map((m) => momentInEvent(m, ctx)),
  mediaFiles: [],
  hiddenDevices: e.info.hiddenDevices ?? {},
  liveStreams: [],
  metadata: e.info.metadata ?? {}
})

export const placeView = (p: Place, activeEventKey: string | undefined) => ({
  key: p.key,
  companyKey: p.companyKey,
  name: p.name,
  sport: p.sport,
  timeZoneID: p.timeZoneID ?? "UTC",
  location: p.location,
  activeEventKey
})
