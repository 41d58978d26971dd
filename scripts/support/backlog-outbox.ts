import { mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { openOutboxDatabase, outboxFileName } from "../../src/delivery/outbox-database.ts"
import { outboxStatements } from "../../src/delivery/outbox-statements.ts"

/**
 * An outbox file as a venue's daemon leaves it after a long outage: per place, thousands of score
 * entries of past events still pending (and, if asked, the delivered history before them), written
 * in one transaction through the product's own schema and statements, so that a test or the bench
 * gets in a second the file a weekend offline would have written — not by waiting for it.
 */

export interface BacklogPlace {
  readonly key: string
  /** Keys of the place's past events; the past entries are spread over them in order (capture order). */
  readonly pastEventKeys: ReadonlyArray<string>
}

export interface BacklogOutboxSpec {
  /** Created if missing; outbox.sqlite written there. */
  readonly stateDirectory: string
  readonly places: ReadonlyArray<BacklogPlace>
  /** Pending past-event score entries per place. */
  readonly pendingPerPlace: number
  /** Settled history (state delivered, settled_at = its capture + 2 s), default 0. */
  readonly deliveredPerPlace?: number
  /** Capture time (ms) of the first entry. */
  readonly from: number
  /** Capture time (ms) of the last entry (all before "now" of the test). */
  readonly to: number
}

/** A generic sport's score entry, as the simulator and the outbox's Schema take it. */
export interface BacklogEntry {
  readonly timeStamp: number
  readonly left: number
  readonly right: number
  readonly period: number
}

export interface BacklogOutbox {
  /** Rows written. */
  readonly items: number
  /** Size of outbox.sqlite (+ -wal) after close. */
  readonly bytes: number
  /** Per place, the pending entries in capture order: outbox id, event key, the entry. */
  readonly pending: ReadonlyMap<string, ReadonlyArray<{ readonly id: number; readonly eventKey: string; readonly entry: BacklogEntry }>>
}

/** One row to write: a place's k-th entry of its sequence (delivered history first, then the pending ones). */
interface PlannedEntry {
  readonly eventKey: string
  readonly entry: BacklogEntry
  readonly delivered: boolean
}

/**
 * A place's entries in capture order. The delivered history belongs to its first past event (the
 * one the outage began in); the pending entries are spread over the past events in order. Within
 * an event the score starts at 0–0 and one side scores at each entry; the period goes 1 to 4.
 */
const planPlace = (place: BacklogPlace, pending: number, delivered: number, timeOf: (k: number) => number): Array<PlannedEntry> => {
  const events = place.pastEventKeys
  if (events.length === 0) throw new Error(`backlog outbox: place ${place.key} has no past event keys`)
  const eventOf = (k: number): number => (k < delivered ? 0 : Math.floor(((k - delivered) * events.length) / pending))
  // Entries per event (for its periods) and the index where each event's entries begin.
  const sizes = events.map(() => 0)
  for (let k = 0; k < delivered + pending; k++) sizes[eventOf(k)]!++
  const planned: Array<PlannedEntry> = []
  let left = 0
  let right = 0
  let inEvent = 0
  let previous = -1
  for (let k = 0; k < delivered + pending; k++) {
    const event = eventOf(k)
    if (event !== previous) [left, right, inEvent, previous] = [0, 0, 0, event]
    if (inEvent % 2 === 0) left++
    else right++
    const period = 1 + Math.min(3, Math.floor((inEvent * 4) / sizes[event]!))
    inEvent++
    planned.push({ eventKey: events[event]!, entry: { timeStamp: timeOf(k), left, right, period }, delivered: k < delivered })
  }
  return planned
}

const fileBytes = (file: string): number => {
  let bytes = 0
  for (const name of [file, `${file}-wal`]) {
    try {
      bytes += statSync(name).size
    } catch {
      // No -wal after a clean close: SQLite deletes it.
    }
  }
  return bytes
}

export const writeBacklogOutbox = (spec: BacklogOutboxSpec): BacklogOutbox => {
  const delivered = spec.deliveredPerPlace ?? 0
  const total = delivered + spec.pendingPerPlace
  if (!(spec.pendingPerPlace > 0 && Number.isInteger(spec.pendingPerPlace) && Number.isInteger(delivered) && delivered >= 0)) {
    throw new Error("backlog outbox: pendingPerPlace must be a positive integer, deliveredPerPlace a non-negative one")
  }
  if (!(spec.to >= spec.from)) throw new Error("backlog outbox: `to` must not be before `from`")
  // Whole milliseconds: the service takes a timeStamp as an integer.
  const timeOf = (k: number): number => total === 1 ? spec.from : Math.round(spec.from + ((spec.to - spec.from) * k) / (total - 1))
  const plans = spec.places.map((place) => planPlace(place, spec.pendingPerPlace, delivered, timeOf))

  mkdirSync(spec.stateDirectory, { recursive: true })
  const { db } = openOutboxDatabase(spec.stateDirectory)
  const pending = new Map(spec.places.map((place) => [place.key, [] as Array<{ id: number; eventKey: string; entry: BacklogEntry }>]))
  let items = 0
  try {
    // One commit for the lot; the synchronous = FULL of the open makes it durable at COMMIT.
    const sql = outboxStatements(db)
    db.exec("BEGIN IMMEDIATE")
    try {
      // Row by row in capture order across the places, as the daemon appends them.
      for (let k = 0; k < total; k++) {
        for (const [p, place] of spec.places.entries()) {
          const { eventKey, entry, delivered: settled } = plans[p]![k]!
          const { lastInsertRowid } = sql.insert.run({
            place: place.key,
            kind: "score",
            payload: JSON.stringify(entry),
            eventKey,
            dedupeKey: null,
            createdAt: entry.timeStamp,
            notBefore: entry.timeStamp,
            receivedAs: null
          })
          const id = Number(lastInsertRowid)
          items++
          if (settled) {
            sql.settle.run({
              id,
              state: "delivered",
              lastError: null,
              result: JSON.stringify({ eventKey, key: `backlog-${place.key}-${k}` }),
              settledAt: entry.timeStamp + 2_000
            })
          } else pending.get(place.key)!.push({ id, eventKey, entry })
        }
      }
      db.exec("COMMIT")
    } catch (cause) {
      db.exec("ROLLBACK")
      throw cause
    }
  } finally {
    db.close()
  }
  return { items, bytes: fileBytes(join(spec.stateDirectory, outboxFileName)), pending }
}
