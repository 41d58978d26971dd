import type { FaultKind } from "./faults.ts"

/** One `/public/` request as the simulator saw it; `organization` is a key, never the token. */
export interface RecordedRequest {
  readonly seq: number
  readonly at: number
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly body: unknown
  /** Null when no answer was sent (reset, hang); for reset-after-apply, the status the client never got. */
  readonly status: number | null
  readonly response: unknown
  readonly organization: string | null
  readonly fault?: FaultKind
}

export interface RequestFilter {
  readonly method?: string
  readonly pathPrefix?: string
  readonly status?: number
}

/** Bounds memory when a daemon runs against the simulator for hours; tests never get near it. */
const keepAtMost = 20_000

export class Recorder {
  #entries: Array<RecordedRequest> = []
  #seq = 0

  record(entry: Omit<RecordedRequest, "seq">): void {
    this.#seq += 1
    this.#entries.push({ seq: this.#seq, ...entry })
    if (this.#entries.length > keepAtMost) this.#entries.splice(0, this.#entries.length - keepAtMost)
  }

  list(filter: RequestFilter = {}): ReadonlyArray<RecordedRequest> {
    return this.#entries.filter((e) =>
      (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
      (filter.pathPrefix === undefined || e.path.startsWith(filter.pathPrefix)) &&
      (filter.status === undefined || e.status === filter.status)
    )
  }

  clear(): void {
    this.#entries = []
  }
}
