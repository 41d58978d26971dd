import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { sleep } from "./stats.ts"
import type { Place, Venue } from "./venue.ts"

/** A button press the bench published, and where its click landed. */
export interface Press {
  readonly place: Place
  readonly publishedAt: number
}

/** A score change the bench wrote to a pty. */
export interface ScoreWrite {
  readonly place: Place
  readonly writtenAt: number
  readonly home: number
}

export interface Matched {
  /** Simulator receive time minus the bench's publish or write time (same clock). */
  readonly latencies: ReadonlyArray<number>
  /**
   * The part of each latency before the daemon stamped its receive time (the body's `timeStamp`):
   * broker or pty and the daemon's event loop; the rest is decoding, the outbox fsync and HTTP.
   */
  readonly beforeStamp: ReadonlyArray<number>
  /** The simulator's sequence number of each matched request, to look at what came before it. */
  readonly seqs: ReadonlyArray<number>
  /** Presses or writes that never reached the simulator. */
  readonly lost: number
}

/** Answered 2xx: a request the service took. */
export const accepted = (r: RecordedRequest) => r.status !== null && r.status >= 200 && r.status < 300

/** Every /public/ request the simulator saw so far, in arrival order. */
export const allRequests = (venue: Venue): Promise<Array<RecordedRequest>> => venue.control.requests({ pathPrefix: "/public/" })

/**
 * Pairs each press with its click: the click on the place's event whose `timeStamp` (the
 * daemon's receive time of the press) falls within `windowMs` (2 s) after the publish.
 */
export const matchClicks = (requests: ReadonlyArray<RecordedRequest>, presses: ReadonlyArray<Press>, windowMs = 2_000): Matched => {
  const used = new Set<number>()
  const latencies: Array<number> = []
  const beforeStamp: Array<number> = []
  const seqs: Array<number> = []
  let lost = 0
  for (const press of presses) {
    const path = `/public/events/${press.place.eventKey}/clicks`
    const click = requests.find((r) => {
      const stamp = (r.body as { timeStamp?: number } | null)?.timeStamp ?? Number.NaN
      return r.method === "POST" && r.path === path && accepted(r) && !used.has(r.seq) &&
        stamp >= press.publishedAt && stamp < press.publishedAt + windowMs
    })
    if (click === undefined) {
      lost++
      continue
    }
    used.add(click.seq)
    seqs.push(click.seq)
    latencies.push(click.at - press.publishedAt)
    beforeStamp.push((click.body as { timeStamp: number }).timeStamp - press.publishedAt)
  }
  return { latencies, beforeStamp, seqs, lost }
}

/** Pairs each written score change with the entry of that score the simulator accepted for the place. */
export const matchScores = (requests: ReadonlyArray<RecordedRequest>, writes: ReadonlyArray<ScoreWrite>): Matched => {
  const latencies: Array<number> = []
  const beforeStamp: Array<number> = []
  const seqs: Array<number> = []
  let lost = 0
  for (const write of writes) {
    const paths = [`/public/places/${write.place.key}/score`, `/public/events/${write.place.eventKey}/score`]
    const entry = requests.find((r) => {
      const body = r.body as { left?: number; right?: number; timeStamp?: number } | null
      return r.method === "POST" && paths.includes(r.path) && accepted(r) &&
        (body?.left ?? 0) + (body?.right ?? 0) === write.home && (body?.timeStamp ?? 0) >= write.writtenAt
    })
    if (entry === undefined) {
      lost++
      continue
    }
    seqs.push(entry.seq)
    latencies.push(entry.at - write.writtenAt)
    beforeStamp.push((entry.body as { timeStamp: number }).timeStamp - write.writtenAt)
  }
  return { latencies, beforeStamp, seqs, lost }
}

/**
 * Pending score entries per place, read from the daemon's outbox (read-only; WAL lets a reader
 * in beside the writer) — the bench's view of "every place has a backlog".
 */
export const pendingScores = (venue: Venue): ReadonlyMap<string, number> => {
  const rows = readOutbox(venue, "SELECT place, count(*) AS n FROM items WHERE state = 'pending' AND kind = 'score' GROUP BY place")
  return new Map(rows.map((r) => [String(r["place"]), Number(r["n"])]))
}

/** Pending items of every kind (scores, clicks, undos), sent or not: zero once the outbox has nothing left to do. */
export const pendingItems = (venue: Venue): number =>
  Number(readOutbox(venue, "SELECT count(*) AS n FROM items WHERE state = 'pending'")[0]?.["n"] ?? 0)

const readOutbox = (venue: Venue, sql: string) => {
  const db = new DatabaseSync(join(venue.stateDirectory, "outbox.sqlite"), { readOnly: true, timeout: 5_000 })
  try {
    return db.prepare(sql).all()
  } finally {
    db.close()
  }
}

/**
 * A clip follow-up's read of a click's moment. The bench's places have no cameras, so no clip ever
 * comes and each click's moment is read for minutes (10, 20, 40, 80, 160 s after it was accepted,
 * then at its deadline): reads in the slots nobody else wants, not deliveries.
 */
const isMomentRead = (r: RecordedRequest) => r.method === "GET" && r.path.startsWith("/public/moments/")

/**
 * Waits until the outbox is empty and the simulator has seen nothing but moment reads for
 * `quietMs` (startup look-ups, warm-up). Follow-ups go on meanwhile, as they do at a venue.
 */
export const settle = async (venue: Venue, quietMs: number, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const pending = [...pendingScores(venue).values()].reduce((n, c) => n + c, 0)
    const last = (await allRequests(venue)).filter((r) => !isMomentRead(r)).at(-1)
    if (pending === 0 && (last === undefined || Date.now() - last.at >= quietMs)) return
    await sleep(250)
  }
  throw new Error(`the daemon did not settle within ${timeoutMs} ms (outbox not empty or requests still going out)`)
}
