import type { Fault } from "./faults.ts"
import type { RecordedRequest, RequestFilter } from "./recorder.ts"

export type { Fault, RecordedRequest, RequestFilter }

export interface StartEventOptions {
  readonly externalID?: string
  readonly homeTeam?: string
  readonly awayTeam?: string
  readonly name?: string
}

/** A video clip as the service shows it inside a moment. */
export interface StateClip {
  readonly key: string
  readonly rank: number
  /** The camera that made the clip. */
  readonly deviceID: string
  readonly startTime: number
  readonly endTime: number
  readonly videoURL: string
}

export interface StateMoment {
  readonly key: string
  readonly eventKey: string
  readonly momentStatus: "processing" | "ready" | "failed"
  readonly momentStartTime: number
  readonly scoreStreamEntryKey?: string
  readonly videoClips: ReadonlyArray<StateClip>
  readonly players: ReadonlyArray<unknown>
  readonly metadata?: Readonly<Record<string, unknown>>
  /** When the click arrived at the simulator. */
  readonly receivedAt: number
  /** When generation ends: the last clip is visible, or the moment turns `failed`; `processing` before. */
  readonly clipsReadyAt: number
  /** Why the moment never gets clips: no camera was recording when the click arrived, or its footage had gone. */
  readonly failure?: string
}

export interface StateScoreEntry {
  readonly key: string
  readonly timeStamp: number
  readonly [field: string]: unknown
}

export interface StateEvent {
  readonly key: string
  readonly externalEventID: string
  readonly companyKey: string
  readonly name: string
  readonly placeKey?: string
  readonly sport: string
  readonly homeTeam?: string
  readonly awayTeam?: string
  readonly startTime?: number
  readonly endTime?: number
  readonly scheduledStartTime?: number
  readonly scheduledEndTime?: number
  readonly score?: StateScoreEntry
  readonly scoreStream: ReadonlyArray<StateScoreEntry>
  readonly moments: ReadonlyArray<StateMoment>
  readonly metadata: Readonly<Record<string, unknown>>
}

export interface StatePlace {
  readonly key: string
  readonly name: string
  readonly sport: string
  readonly activeEventKey?: string
  /** Every camera of the place, in rank order. */
  readonly cameras: ReadonlyArray<string>
  /** The cameras recording now; a click gets one clip from each. */
  readonly activeCameras: ReadonlyArray<string>
}

/** A place's cameras after a switch. */
export interface PlaceCameras {
  readonly placeKey: string
  readonly cameras: ReadonlyArray<string>
  readonly activeCameras: ReadonlyArray<string>
}

export interface SimulatorState {
  readonly organizations: ReadonlyArray<{
    readonly key: string
    readonly name: string
    readonly places: ReadonlyArray<StatePlace>
  }>
  readonly events: ReadonlyArray<StateEvent>
  readonly rate: { readonly requestsPerSecond: number; readonly burst: number }
}

/** Typed calls of the simulator's `/_control/` endpoints, for tests and the demo. */
export class SimulatorControl {
  readonly #base: string

  constructor(baseUrl: string) {
    this.#base = baseUrl.replace(/\/+$/, "")
  }

  startEvent(placeKey: string, opts: StartEventOptions = {}): Promise<{ eventKey: string; externalID: string }> {
    return this.#call("POST", `/places/${encodeURIComponent(placeKey)}/start-event`, opts)
  }

  async closeEvent(placeKey: string): Promise<void> {
    await this.#call("POST", `/places/${encodeURIComponent(placeKey)}/close-event`)
  }

  /** Keeps exactly `active` of the place's cameras recording (`[]`: none); rejects unknown or repeated ones. */
  setActiveCameras(placeKey: string, active: ReadonlyArray<string>): Promise<PlaceCameras> {
    return this.#call("PUT", `/places/${encodeURIComponent(placeKey)}/cameras`, { active })
  }

  /** Switches all of the place's cameras on or off. */
  async setCameras(placeKey: string, on: boolean): Promise<PlaceCameras> {
    if (!on) return this.setActiveCameras(placeKey, [])
    const place = (await this.state()).organizations.flatMap((o) => o.places).find((p) => p.key === placeKey)
    return this.setActiveCameras(placeKey, place?.cameras ?? []) // an unknown place: the simulator's 404
  }

  async injectFault(fault: Fault): Promise<void> {
    await this.#call("POST", "/faults", fault)
  }

  async clearFaults(): Promise<void> {
    await this.#call("DELETE", "/faults")
  }

  requests(filter: RequestFilter = {}): Promise<Array<RecordedRequest>> {
    const query = new URLSearchParams()
    if (filter.method !== undefined) query.set("method", filter.method)
    if (filter.pathPrefix !== undefined) query.set("pathPrefix", filter.pathPrefix)
    if (filter.status !== undefined) query.set("status", String(filter.status))
    const text = query.toString()
    return this.#call("GET", `/requests${text === "" ? "" : `?${text}`}`)
  }

  async clearRequests(): Promise<void> {
    await this.#call("DELETE", "/requests")
  }

  state(): Promise<SimulatorState> {
    return this.#call("GET", "/state")
  }

  async setRate(rate: { requestsPerSecond: number; burst: number }): Promise<void> {
    await this.#call("PUT", "/rate", rate)
  }

  /** From now on the token's calls answer 401 ("missing, revoked or unknown token"). */
  async revokeToken(token: string): Promise<void> {
    await this.#call("POST", "/tokens/revoke", { token })
  }

  async #call<A>(method: string, path: string, body?: unknown): Promise<A> {
    const response = await fetch(`${this.#base}/_control${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`simulator control ${method} ${path}: HTTP ${response.status} ${text}`)
    return JSON.parse(text) as A
  }
}
