import { Option, Schema, SchemaGetter } from "effect"

/**
 * Shapes of the Event Highlights Service as this bridge uses them.
 * Responses are decoded leniently: unknown extra fields are ignored and a
 * documented field the service leaves out or sends as `null` decodes as absent,
 * because the document does not promise which fields every record carries.
 * Request bodies are typed only; they are built by our own code.
 */
const optional = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(schema)).pipe(
    Schema.decodeTo(Schema.optionalKey(Schema.toType(schema)), {
      decode: SchemaGetter.transformOptional(Option.filter((v) => v !== null)),
      encode: SchemaGetter.passthroughSupertype()
    })
  )

const Dictionary = Schema.Record(Schema.String, Schema.Unknown)

export const Location = Schema.Struct({
  name: Schema.String,
  geoLoc: Schema.Struct({ lat: Schema.Number, lng: Schema.Number })
})
export type Location = typeof Location.Type

export const Place = Schema.Struct({
  key: Schema.String,
  companyKey: optional(Schema.String),
  name: optional(Schema.String),
  sport: optional(Schema.String),
  timeZoneID: optional(Schema.String),
  location: optional(Location),
  activeEventKey: optional(Schema.String),
  thumbnailURL: optional(Schema.String)
})
export type Place = typeof Place.Type

export const Player = Schema.Struct({ id: optional(Schema.String), name: optional(Schema.String) })
export type Player = typeof Player.Type

export const VideoClip = Schema.Struct({
  key: Schema.String,
  rank: optional(Schema.Number),
  thumbnailURL: optional(Schema.String),
  videoURL: optional(Schema.String),
  downloadURL: optional(Schema.String),
  shortUrl: optional(Schema.String),
  views: optional(Schema.Number),
  orientation: optional(Schema.String),
  thumbnailSizes: optional(Schema.String),
  startTime: optional(Schema.Number),
  endTime: optional(Schema.Number)
})
export type VideoClip = typeof VideoClip.Type

/** A score entry as stored: the sport fields stay an open dictionary. */
export const StoredScore = Schema.StructWithRest(
  Schema.Struct({ key: optional(Schema.String), timeStamp: optional(Schema.Number) }),
  [Dictionary]
)
export type StoredScore = typeof StoredScore.Type

/** A Moment as listed inside its Event. */
export const EventMoment = Schema.Struct({
  key: Schema.String,
  momentStatus: optional(Schema.String),
  momentStartTime: optional(Schema.Number),
  scoreStreamEntryKey: optional(Schema.String),
  videoClips: optional(Schema.Array(VideoClip)),
  players: optional(Schema.Array(Player)),
  metadata: optional(Dictionary)
})
export type EventMoment = typeof EventMoment.Type

/** A Moment read on its own (GET /public/moments/{momentKey}). */
export const Moment = Schema.Struct({
  key: Schema.String,
  eventKey: optional(Schema.String),
  momentStatus: optional(Schema.String),
  momentStartTime: optional(Schema.Number),
  score: optional(StoredScore),
  videoClips: optional(Schema.Array(VideoClip)),
  players: optional(Schema.Array(Player)),
  metadata: optional(Dictionary)
})
export type Moment = typeof Moment.Type

export const MediaFile = Schema.Struct({
  startTime: optional(Schema.Number),
  thumbnailURL: optional(Schema.String),
  videoURL: optional(Schema.String),
  downloadURL: optional(Schema.String),
  status: optional(Schema.String),
  deviceID: optional(Schema.String)
})

export const LiveStream = Schema.Struct({
  thumbnailURL: optional(Schema.String),
  liveURL: optional(Schema.String),
  deviceID: optional(Schema.String)
})

/** The full Event (GET /public/events/{eventKey}). */
export const Event = Schema.Struct({
  key: Schema.String,
  externalEventID: optional(Schema.String),
  companyKey: optional(Schema.String),
  name: optional(Schema.String),
  description: optional(Schema.String),
  notSearchable: optional(Schema.Boolean),
  creationDate: optional(Schema.Number),
  placeKey: optional(Schema.String),
  scheduledStartTime: optional(Schema.Number),
  scheduledEndTime: optional(Schema.Number),
  announcedTime: optional(Schema.Number),
  startTime: optional(Schema.Number),
  endTime: optional(Schema.Number),
  thumbnailURL: optional(Schema.String),
  homeTeam: optional(Schema.String),
  awayTeam: optional(Schema.String),
  shortInviteUrl: optional(Schema.String),
  sport: optional(Schema.String),
  pinCode: optional(Schema.Number),
  cameraPinCode: optional(Schema.Number),
  scoreSupported: optional(Schema.Boolean),
  score: optional(StoredScore),
  scoreStream: optional(Schema.Array(StoredScore)),
  highlightsURL: optional(Schema.String),
  highlightsShareURL: optional(Schema.String),
  highlightsUploadedVideoClipKey: optional(Schema.String),
  location: optional(Location),
  moments: optional(Schema.Array(EventMoment)),
  mediaFiles: optional(Schema.Array(MediaFile)),
  hiddenDevices: optional(Dictionary),
  liveStreams: optional(Schema.Array(LiveStream)),
  metadata: optional(Dictionary)
})
export type Event = typeof Event.Type

// ---- request bodies ------------------------------------------------------

export interface Overlay {
  readonly imageSource?: string
  readonly templateSource?: string
  readonly values?: Readonly<Record<string, string>>
  readonly position?: {
    readonly horizontal?: "left" | "center" | "right"
    readonly vertical?: "top" | "center" | "bottom"
  }
  readonly heightPercentOfHeight?: number
  readonly widthPercentOfWidth?: number
  readonly marginPercentOfHeight?: number
  readonly marginPercentOfWidth?: number
  /** ms relative to clip start. */
  readonly startTime?: number
  readonly duration?: number
}

export interface ClickBody {
  /** The button edge time, ms. */
  readonly timeStamp: number
  readonly startTime?: number
  readonly endTime?: number
  readonly score?: Readonly<Record<string, unknown>> & { readonly timeStamp: number }
  readonly overlays?: ReadonlyArray<Overlay>
  readonly players?: ReadonlyArray<Player>
  /** At most 500 bytes as UTF-8 JSON; clicks carry their id here for reconciliation. */
  readonly metadata?: Readonly<Record<string, unknown>>
}

export interface CreateEvent {
  readonly companyKey: string
  readonly name: string
  readonly location?: Location
  readonly description?: string
  readonly notSearchable?: boolean
  readonly placeKey?: string
  readonly scheduledStartTime?: number
  readonly scheduledEndTime?: number
  readonly thumbnailURL?: string
  readonly homeTeam?: string
  readonly awayTeam?: string
  readonly sport?: string
  readonly pinCode?: number
  readonly cameraPinCode?: number
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly hiddenDevices?: Readonly<Record<string, unknown>>
}

export interface MomentPatch {
  readonly score?: Readonly<Record<string, unknown>> & { readonly timeStamp: number }
  readonly players?: ReadonlyArray<Player>
  readonly metadata?: Readonly<Record<string, unknown>>
}

// ---- responses -----------------------------------------------------------

/** The live sport list; its shape is not documented, so both a bare list and `{sports}` are read. */
export const SportsAnswer = Schema.Union([
  Schema.Array(Schema.String),
  Schema.Struct({ sports: Schema.Array(Schema.String) })
])

export const PlacesAnswer = Schema.Struct({ places: Schema.Array(Place) })

export const ActiveEventAnswer = Schema.Struct({ activeEventKey: optional(Schema.String) })

export const PlaceScoreAdded = Schema.Struct({ eventKey: Schema.String, key: Schema.String })
export const PlaceScoreDropped = Schema.Struct({ warning: Schema.String })

export type PlaceScoreAnswer =
  | { readonly _tag: "Added"; readonly eventKey: string; readonly key: string }
  | { readonly _tag: "NoEvent"; readonly warning: string }

export const KeyAnswer = Schema.Struct({ key: Schema.String })

export const EventKeyAnswer = Schema.Struct({ eventKey: Schema.String })

/** The lookup's answer when nothing matches is not documented: an absent key reads as "none". */
export const LookupAnswer = Schema.Struct({ eventKey: optional(Schema.String) })

export const ClickAnswer = Schema.Struct({ momentKey: Schema.String, error: optional(Schema.String) })

export const PartialAnswer = Schema.Struct({ error: optional(Schema.String) })

export const VideoAnswer = Schema.Struct({ videoURL: Schema.String })

/** Error bodies: `{errors: [...]}` on 400, `{error}` (or `{message}`) elsewhere; layout otherwise undocumented. */
export const ErrorBody = Schema.Struct({
  errors: optional(Schema.Array(Schema.Union([
    Schema.String,
    Schema.Struct({ field: optional(Schema.String), message: optional(Schema.String) })
  ]))),
  error: optional(Schema.String),
  message: optional(Schema.String)
})
