import type { PressIdentity } from "../domain/button.ts"
import { Option, Predicate, Result, Schema, SchemaIssue } from "effect"
import { itemKinds, itemStates, type ItemKind, type ItemState } from "../domain/item-kinds.ts"

// What the outbox holds, and how a row of it becomes an item: decoded, since the file outlives
// the process that wrote it and can be edited behind its back.

export interface OutboxItem {
  /** Monotonically increasing, never reused; lane order. */
  readonly id: number
  /** The lane: one place. */
  readonly place: string
  readonly kind: ItemKind
  /** JSON: score entry body, click body, or `{ clickItemId }`. */
  readonly payload: unknown
  /** The event live on the place when captured, if known. */
  readonly eventKey: string | null
  readonly dedupeKey: string | null
  /** Capture time, ms. */
  readonly createdAt: number
  /** Sends made so far: reschedule and the delivered/warning/dead outcomes each count one. */
  readonly attempts: number
  /** Earliest next attempt, ms. */
  readonly notBefore: number
  readonly state: ItemState
  /** The latest error, warning or miss reason (never the token); cleared on delivery. */
  readonly lastError: string | null
  /** The service's answer when delivered, e.g. `{ eventKey, key }` or `{ momentKey }`. */
  readonly result: unknown | null
  readonly settledAt: number | null
  /** Set while an attempt is in doubt: when, and where it was sent (event key or "place"). */
  readonly sentAt: number | null
  readonly sentTo: string | null
}

export interface AppendInput {
  readonly place: string
  readonly kind: ItemKind
  readonly payload: unknown
  readonly eventKey?: string | null
  /** A second append with the same key returns the existing item and writes nothing. */
  readonly dedupeKey?: string | null
  readonly createdAt: number
  /** The broker message the item was made from (see `receivedAsOf`), for `storedFrom`. */
  readonly receivedAs?: string
  /** Not sent before this time (ms); default: at once. An auto-highlight waits here for a press to replace it. */
  readonly notBefore?: number
  /** Stored with the item: the press identity its button source gave (see PressIdentity). */
  readonly pressIdentity?: PressIdentity
}

/**
 * `disk` (the default): the write returns once it is on disk. `commit`: once it is in the outbox,
 * for an input nobody acknowledges (a serial line); it is still sent only once on disk.
 */
export interface WriteOptions {
  readonly wait?: "disk" | "commit"
}

export interface LaneCount {
  readonly place: string
  readonly kind: ItemKind
  readonly state: ItemState
  readonly count: number
}

/**
 * Every kind's payload is a JSON object: a score entry, a click body, an undo's `{ clickItemId }`.
 * Their fields are left to the service, which judges the bodies, and to the readers that need
 * some (the timeline decodes what it draws): a file written by another version of the bridge
 * holds bodies of other shapes (the first undos held `{ momentKey }`), and an outbox that refused
 * them here would strand them unsent. JSON.parse only makes JSON, so the values go unchecked, and
 * fields this bridge does not know go to the service as they are.
 */
const JsonObject = Schema.Record(Schema.String, Schema.Unknown).annotate({ message: "Expected a JSON object" })
const Payload = Schema.fromJsonString(JsonObject)
const Kind = Schema.Literals(itemKinds)
const State = Schema.Literals(itemStates)

/**
 * A row of `items` as SQLite returns it (`SELECT *`), decoded: its JSON columns parsed, its kind and
 * state ones this bridge knows. Encoding gives back the columns. `received_as` is not read, nor any
 * column a newer bridge added: a file it left behind after a downgrade is read as this bridge's own
 * (see the rule in outbox-schema.ts).
 */
export const ItemRow = Schema.Struct({
  id: Schema.Int,
  place: Schema.String,
  kind: Kind,
  payload: Payload,
  event_key: Schema.NullOr(Schema.String),
  dedupe_key: Schema.NullOr(Schema.String),
  created_at: Schema.Int,
  attempts: Schema.Int,
  not_before: Schema.Int,
  state: State,
  last_error: Schema.NullOr(Schema.String),
  // Null first: JSON `null` would decode to null too, but encoding null must give back SQL NULL.
  result: Schema.Union([Schema.Null, Schema.fromJsonString(Schema.Unknown)]),
  settled_at: Schema.NullOr(Schema.Int),
  sent_at: Schema.NullOr(Schema.Int),
  sent_to: Schema.NullOr(Schema.String)
})

/** The columns of an item as SQLite returns them. */
export type ItemColumns = typeof ItemRow.Encoded

// Renamed by a plain function once decoded: renaming inside the schema (`encodeKeys`, `decodeTo`)
// made decoding a third to twice as slow, and decoding is most of what a read costs (the timeline
// reads up to 2,000 items at a time, on the event loop).
const toItem = (row: typeof ItemRow.Type): OutboxItem => ({
  id: row.id,
  place: row.place,
  kind: row.kind,
  payload: row.payload,
  eventKey: row.event_key,
  dedupeKey: row.dedupe_key,
  createdAt: row.created_at,
  attempts: row.attempts,
  notBefore: row.not_before,
  state: row.state,
  lastError: row.last_error,
  result: row.result,
  settledAt: row.settled_at,
  sentAt: row.sent_at,
  sentTo: row.sent_to
})

/** A row that is not an item this bridge can read: a hand edit, a bug, a damaged page SQLite did not notice. */
export class MalformedItem extends Schema.TaggedError<MalformedItem>()("MalformedItem", {
  /** Null when not even the id could be read. */
  id: Schema.NullOr(Schema.Number),
  problem: Schema.String
}) {
  override get message() {
    return `item #${this.id ?? "?"} is malformed (${this.problem})`
  }
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()
// Column names, as whoever opens the file with sqlite3 sees them; never the values (a payload can be large).
const problemOf = (issue: SchemaIssue.Issue): string =>
  formatter(issue).issues
    .map(({ path = [], message }) =>
      path.length === 0 ? message : `${path.map((at) => String(Predicate.isObject(at) ? at.key : at)).join(".")}: ${message}`
    )
    .join("; ")

// "ignore" is the default, spelled out: a newer bridge's columns must not make its items malformed here.
const decodeRow = Schema.decodeUnknownResult(ItemRow, { errors: "all", onExcessProperty: "ignore" })
const decodeId = Schema.decodeUnknownOption(Schema.Struct({ id: Schema.Int }))

export const decodeItem = (row: unknown): Result.Result<OutboxItem, MalformedItem> =>
  Result.match(decodeRow(row), {
    onSuccess: (decoded) => Result.succeed(toItem(decoded)),
    onFailure: (error) =>
      Result.fail(new MalformedItem({
        id: Option.match(decodeId(row), { onNone: () => null, onSome: ({ id }) => id }),
        problem: problemOf(error.issue)
      }))
  })

/**
 * Why a payload about to be stored could not be read back, if so. `json` is JSON.stringify's own
 * output, so only its kind is in question, and an object's text starts with "{": a check on the
 * event loop of every append, where parsing it again with the Schema would cost a decode.
 */
export const payloadProblem = (json: string): string | undefined => json.startsWith("{") ? undefined : "Expected a JSON object"

/** What a malformed row's lane is, when that much of it can be read. */
export const decodeLane = Schema.decodeUnknownOption(Schema.Struct({ id: Schema.Int, place: Schema.String, kind: Kind }))

export const decodeLaneCounts = Schema.decodeUnknownResult(
  Schema.Array(Schema.Struct({ place: Schema.String, kind: Kind, state: State, count: Schema.Int }))
)
