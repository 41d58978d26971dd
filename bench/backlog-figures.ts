import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { accepted, type Press, type ScoreWrite } from "./deliveries.ts"
import { requestsPerSecond, type Place } from "./venue.ts"

/**
 * The backlog phase's figures, from what the simulator accepted and what the daemon's outbox
 * holds: when each live place became current, the stamps, the drain.
 */

type Body = { readonly left?: number; readonly right?: number; readonly timeStamp?: number } | null

/** The paths a place's live score may take: the place's own, or its live event's. */
const livePaths = (place: Place) => [`/public/places/${place.key}/score`, `/public/events/${place.eventKey}/score`]

export interface LiveCurrent {
  readonly place: string
  /** From the service's return until the place's latest live state (as of the return) was accepted; the window's length when it never was. */
  readonly ms: number
  readonly current: boolean
  /** The score the place showed at the return. */
  readonly home: number
}

/**
 * Per place: the latest score change written before the service came back, and the first request
 * after it that the simulator accepted for the place's live event carrying that score or a later
 * one (a later change may overtake it: the score only goes up on the bench's boards).
 */
export const liveCurrent = (
  requests: ReadonlyArray<RecordedRequest>,
  places: ReadonlyArray<Place>,
  writes: ReadonlyArray<ScoreWrite>,
  returnedAt: number,
  endedAt: number
): Array<LiveCurrent> =>
  places.map((place) => {
    const latest = writes.filter((w) => w.place === place && w.writtenAt <= returnedAt).at(-1)
    if (latest === undefined) return { place: place.key, ms: Number.NaN, current: false, home: 0 }
    const paths = livePaths(place)
    const request = requests.find((r) => {
      const body = r.body as Body
      return r.at >= returnedAt && r.method === "POST" && paths.includes(r.path) && accepted(r) &&
        (body?.left ?? 0) + (body?.right ?? 0) >= latest.home && (body?.timeStamp ?? 0) >= latest.writtenAt
    })
    return request === undefined
      ? { place: place.key, ms: endedAt - returnedAt, current: false, home: latest.home }
      : { place: place.key, ms: request.at - returnedAt, current: true, home: latest.home }
  })

export interface Stamps {
  /** Daemon stamp − bench write or publish time, every live entry and click found in the outbox. */
  readonly errors: ReadonlyArray<number>
  /** Changes or presses the outbox has no item for. */
  readonly missing: number
  /** The first few of them. */
  readonly missed: ReadonlyArray<{ readonly what: string; readonly at: number }>
  /** The worst few, with what they were. */
  readonly worst: ReadonlyArray<{ readonly ms: number; readonly what: string; readonly at: number }>
}

interface StoredRow {
  readonly place: string
  readonly kind: string
  readonly stamp: number
  readonly sum: number
}

/** The daemon's own items (after the generated backlog), read from its outbox once it has stopped. */
const storedItems = (stateDirectory: string, afterId: number): Array<StoredRow> => {
  const db = new DatabaseSync(join(stateDirectory, "outbox.sqlite"), { readOnly: true, timeout: 5_000 })
  try {
    return db.prepare("SELECT place, kind, payload FROM items WHERE id > ? AND kind IN ('score', 'click') ORDER BY id").all(afterId)
      .map((row) => {
        const payload = JSON.parse(String(row["payload"])) as { timeStamp: number; left?: number; right?: number }
        return { place: String(row["place"]), kind: String(row["kind"]), stamp: payload.timeStamp, sum: (payload.left ?? 0) + (payload.right ?? 0) }
      })
  } finally {
    db.close()
  }
}

/**
 * Stamp errors from the outbox, not from the simulator: an old daemon leaves the live entries
 * behind the backlog, undelivered when the phase ends, but they were stamped when read all the same.
 */
export const stampsFromOutbox = (
  stateDirectory: string,
  afterId: number,
  writes: ReadonlyArray<ScoreWrite>,
  presses: ReadonlyArray<Press>,
  clickWindowMs = 10_000
): Stamps => {
  const rows = storedItems(stateDirectory, afterId)
  const used = new Set<StoredRow>()
  const samples: Array<{ ms: number; what: string; at: number }> = []
  const missed: Array<{ what: string; at: number }> = []
  const take = (found: StoredRow | undefined, from: number, what: string) => {
    if (found === undefined) return void missed.push({ what, at: from })
    used.add(found)
    samples.push({ ms: found.stamp - from, what, at: from })
  }
  for (const write of writes) {
    take(rows.find((r) => !used.has(r) && r.kind === "score" && r.place === write.place.key && r.sum === write.home && r.stamp >= write.writtenAt),
      write.writtenAt, `${write.place.key} change to ${write.home} (${write.place.console.protocol})`)
  }
  for (const press of presses) {
    take(rows.find((r) => !used.has(r) && r.kind === "click" && r.place === press.place.key && r.stamp >= press.publishedAt && r.stamp < press.publishedAt + clickWindowMs),
      press.publishedAt, `${press.place.key} press`)
  }
  return { errors: samples.map((s) => s.ms), missing: missed.length, missed: missed.slice(0, 5), worst: [...samples].sort((a, b) => b.ms - a.ms).slice(0, 5) }
}

export interface Drain {
  /** Accepted requests ÷ the rate's allowance, from the first accepted after the return to the last. */
  readonly ratio: number
  readonly requests: number
  readonly seconds: number
  /** From the service's return to its first accepted request. */
  readonly firstAcceptedMs: number
}

/** n accepted requests span n − 1 intervals, as in the saturated phase's drain. */
export const drainOf = (requests: ReadonlyArray<RecordedRequest>, returnedAt: number, endedAt: number): Drain => {
  const ok = requests.filter((r) => accepted(r) && r.at >= returnedAt && r.at <= endedAt)
  if (ok.length < 2) return { ratio: Number.NaN, requests: ok.length, seconds: 0, firstAcceptedMs: Number.NaN }
  const seconds = (ok.at(-1)!.at - ok[0]!.at) / 1000
  return { ratio: (ok.length - 1) / (seconds * requestsPerSecond), requests: ok.length, seconds, firstAcceptedMs: ok[0]!.at - returnedAt }
}

/** What the accepted requests from `from` to `to` were: the drain's share of each kind. */
export const acceptedKinds = (
  requests: ReadonlyArray<RecordedRequest>,
  places: ReadonlyArray<Place>,
  from: number,
  to = Number.POSITIVE_INFINITY
): Record<string, number> => {
  const live = new Set(places.flatMap(livePaths))
  const past = new Set(places.flatMap((p) => p.pastEventKeys.map((key) => `/public/events/${key}/score`)))
  const counts: Record<string, number> = { live: 0, past: 0, clicks: 0, lookups: 0, other: 0 }
  const kindOf = (path: string) =>
    live.has(path) ? "live" : past.has(path) ? "past" : path.endsWith("/clicks") ? "clicks" : path.endsWith("/activeEventKey") ? "lookups" : "other"
  for (const r of requests) if (r.at >= from && r.at <= to && accepted(r)) counts[kindOf(r.path)]!++
  return counts
}

/** `live 3, past 0, …`: a count per kind, for a line of the report. */
export const kindsText = (counts: Record<string, number>): string =>
  Object.entries(counts).map(([kind, n]) => `${kind === "lookups" ? "live-event look-ups" : kind} ${n}`).join(", ")
