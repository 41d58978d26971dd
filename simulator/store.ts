import { defaultCameras, type SimulatorSeed } from "./seed.ts"

export interface Location {
  readonly name: string
  readonly geoLoc: { readonly lat: number; readonly lng: number }
}

export interface Organization {
  readonly key: string
  readonly name: string
}

export interface Place {
  readonly key: string
  readonly companyKey: string
  readonly name: string
  readonly sport: string
  readonly timeZoneID?: string
  readonly location?: Location
  /** Every camera installed at the place (device ids), in rank order. */
  readonly cameras: ReadonlyArray<string>
  /** The cameras recording now, in the order of `cameras`; the control API switches them. */
  activeCameras: ReadonlyArray<string>
}

/** A score stream entry: the caller's fields as sent, plus the key the service assigned. */
export type ScoreRecord = { readonly key: string; readonly timeStamp: number } & Readonly<Record<string, unknown>>

/** Writable event fields (create and PATCH bodies), stored as sent. */
export interface EventInfo {
  name: string
  description?: string
  notSearchable?: boolean
  placeKey?: string
  scheduledStartTime?: number
  scheduledEndTime?: number
  thumbnailURL?: string
  homeTeam?: string
  awayTeam?: string
  sport: string
  pinCode: number
  cameraPinCode: number
  location?: Location
  metadata?: Record<string, unknown>
  hiddenDevices?: Record<string, unknown>
}

export interface EventRecord {
  readonly key: string
  readonly externalID: string
  readonly companyKey: string
  readonly creationDate: number
  info: EventInfo
  startTime?: number
  endTime?: number
  readonly scoreStream: Array<ScoreRecord>
  readonly moments: Array<MomentRecord>
}

export interface VideoClip {
  readonly key: string
  readonly rank: number
  /** The camera that made the clip. */
  readonly deviceID: string
  readonly startTime: number
  readonly endTime: number
  /** The clip is hidden until then, as real clip generation and upload take a few seconds. */
  readonly readyAt: number
}

export interface MomentRecord {
  readonly key: string
  readonly eventKey: string
  readonly companyKey: string
  /** When the click arrived; the last-minute rule is measured from here. */
  readonly receivedAt: number
  readonly momentStartTime: number
  /** When generation ends: the last clip appears, or a failed moment turns `failed`; `processing` until then. */
  readonly clipsReadyAt: number
  /** One per camera recording when the click arrived; fixed at the click, so later switches change nothing. */
  readonly clips: Array<VideoClip>
  /** Why the moment never gets clips (no camera was recording, no footage of the window was left). */
  readonly failure?: string
  scoreStreamEntryKey?: string
  score?: ScoreRecord
  players: ReadonlyArray<unknown>
  metadata?: Record<string, unknown>
}

export const isOpen = (event: EventRecord): boolean => event.startTime !== undefined && event.endTime === undefined

/** In-memory state of the simulated service. Keys are counters, so runs are reproducible. */
export class Store {
  readonly organizations: ReadonlyArray<Organization>
  readonly places: ReadonlyArray<Place>
  readonly events: Array<EventRecord> = []
  readonly moments = new Map<string, MomentRecord>()
  readonly #tokens = new Map<string, Organization>()
  #counter = 0

  constructor(seed: SimulatorSeed) {
    this.organizations = seed.organizations.map(({ key, name }) => ({ key, name }))
    this.places = seed.organizations.flatMap((org) => org.places.map(({ cameras = defaultCameras, ...p }) => ({
      ...p,
      companyKey: org.key,
      cameras: [...cameras],
      activeCameras: [...cameras]
    })))
    for (const org of seed.organizations) {
      for (const token of org.tokens) this.#tokens.set(token, { key: org.key, name: org.name })
    }
  }

  nextKey(prefix: string): string {
    this.#counter += 1
    return `${prefix}${this.#counter.toString(36).padStart(5, "0")}`
  }

  /** A revoked token answers 401 from then on, as the service's does; false if it was not known. */
  revokeToken(token: string): boolean {
    return this.#tokens.delete(token)
  }

  organizationOfToken(token: string): Organization | undefined {
    return this.#tokens.get(token)
  }

  place(companyKey: string, placeKey: string): Place | undefined {
    return this.places.find((p) => p.key === placeKey && p.companyKey === companyKey)
  }

  /** Either id names an event (the document's "two event identifiers"); the internal key wins. */
  event(companyKey: string, id: string): EventRecord | undefined {
    const mine = this.events.filter((e) => e.companyKey === companyKey)
    return mine.find((e) => e.key === id) ?? mine.find((e) => e.externalID === id)
  }

  /** The event running on a place; the latest started one if schedules overlap. */
  activeEvent(placeKey: string): EventRecord | undefined {
    return this.events
      .filter((e) => e.info.placeKey === placeKey && isOpen(e))
      .sort((a, b) => (b.startTime ?? 0) - (a.startTime ?? 0))[0]
  }

  /** Scheduled events start on their own once their start time has passed. */
  advance(now: number): void {
    for (const e of this.events) {
      if (e.startTime === undefined && e.endTime === undefined && e.info.scheduledStartTime !== undefined && e.info.scheduledStartTime <= now) {
        e.startTime = e.info.scheduledStartTime
      }
    }
  }

  /** Inserts at the entry's timestamp, so the stream stays in score order whatever the arrival order. */
  addScore(event: EventRecord, fields: Readonly<Record<string, unknown>> & { readonly timeStamp: number }): ScoreRecord {
    const entry: ScoreRecord = { ...fields, key: this.nextKey("sc") }
    const at = event.scoreStream.findIndex((e) => e.timeStamp > entry.timeStamp)
    event.scoreStream.splice(at === -1 ? event.scoreStream.length : at, 0, entry)
    return entry
  }

  deleteMoment(moment: MomentRecord): void {
    this.moments.delete(moment.key)
    const event = this.events.find((e) => e.key === moment.eventKey)
    if (event !== undefined) event.moments.splice(event.moments.indexOf(moment), 1)
  }

  deleteEvent(event: EventRecord): void {
    this.events.splice(this.events.indexOf(event), 1)
    for (const m of event.moments) this.moments.delete(m.key)
  }
}
