import type { PressIdentity } from "../domain/button.ts"
import { Option, Predicate, Result, Schema, SchemaIssue } from "effect"
import { checkClickBody, checkScoreEntry, checkUndo, type PayloadOf } from "./item-payloads.ts"
import { itemKinds, itemStates, type ItemKind, type ItemState } from "../domain/item-kinds.ts"

// What the outbox holds, and how a row of it becomes an item: decoded, since the file outlives
// the process that wrote it and can be edited behind its back.

/** What every item has, whatever its kind. */
interface ItemFields {
  /** Monotonically increasing, never reused; lane order. */
  readonly id: number
  /** The lane: one place. */
  readonly place: string
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

/** An item of one kind: its payload is that kind's (item-payloads.ts), checked when read. */
export interface ItemOf<K extends ItemKind> extends ItemFields {
  readonly kind: K
  readonly payload: PayloadOf<K>
}

/** An outbox item: `kind` says what its payload is (a score entry, a click body, an undo's `{ clickItemId }`). */
export type OutboxItem = { readonly [K in ItemKind]: ItemOf<K> }[ItemKind]

/** The items of kind `K`, as a member of the union. */
export type KindItem<K extends ItemKind> = Extract<OutboxItem, { readonly kind: K }>

/** Whether an item is of kind `kind`, typed as such. */
export const isKind = <K extends ItemKind>(kind: K) => (item: OutboxItem): item is KindItem<K> => item.kind === kind

interface AppendFields {
  readonly place: string
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

/** A kind and that kind's payload. */
export type KindPayload = { readonly [K in ItemKind]: { readonly kind: K; readonly payload: PayloadOf<K> } }[ItemKind]

/** An item to append: a kind and that kind's payload. */
export type AppendInput = AppendFields & KindPayload

/**
 * `disk` (the default): the write returns once it is on disk. `commit`: once it is in the outbox,
 * for an input nobody acknowledges (a serial line); it is still sent only once on disk.
 */
export interface WriteOptions {
  readonly wait?: "disk" | "commit"
}

/** How many pending score entries a place holds of one event (null: captured before any answer named it). */
export interface EventScoreCount {
  readonly place: string
  readonly eventKey: string | null
  readonly count: number
}

export interface LaneCount {
  readonly place: string
  readonly kind: ItemKind
  readonly state: ItemState
  readonly count: number
}

/**
 * The payload column as stored: JSON, its shape checked per kind once the row is read (see
 * `typedItem`). A file written by another version of the bridge holds bodies this one reads the
 * same way: its fields are checked, fields it does not know are kept and go to the service as they
 * are (the rule in outbox-schema.ts).
 */
const Payload = Schema.fromJsonString(Schema.Unknown)
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

type Row = typeof ItemRow.Type

// Renamed by a plain function once decoded: renaming inside the schema (`encodeKeys`, `decodeTo`)
// made decoding a third to twice as slow, and decoding is most of what a read costs (the timeline
// reads up to 2,000 items at a time, on the event loop).
const fieldsOf = (row: Row): ItemFields => ({
  id: row.id,
  place: row.place,
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

/** The row as an item of its kind, or the issue that says why its payload is not one. */
const typedItem = (row: Row): Result.Result<OutboxItem, SchemaIssue.Issue> => {
  switch (row.kind) {
    case "score":
      return Result.map(checkScoreEntry(row.payload), (payload) => ({ ...fieldsOf(row), kind: "score", payload }))
    case "click":
      return Result.map(checkClickBody(row.payload), (payload) => ({ ...fieldsOf(row), kind: "click", payload }))
    case "undo":
      return Result.map(checkUndo(row.payload), (payload) => ({ ...fieldsOf(row), kind: "undo", payload }))
  }
}

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
const problemOf = (issue: SchemaIssue.Issue, under: ReadonlyArray<string> = []): string =>
  // A score entry is one of several shapes: each says the same of a field they share, said once here.
  [...new Set(formatter(issue).issues.map(({ path = [], message }) => {
    const at = [...under, ...path.map((at) => String(Predicate.isObject(at) ? at.key : at))]
    return at.length === 0 ? message : `${at.join(".")}: ${message}`
  }))].join("; ")

// "ignore" is the default, spelled out: a newer bridge's columns must not make its items malformed here.
const decodeRow = Schema.decodeUnknownResult(ItemRow, { errors: "all", onExcessProperty: "ignore" })
const decodeId = Schema.decodeUnknownOption(Schema.Struct({ id: Schema.Int }))

const malformed = (row: unknown, problem: string) =>
  new MalformedItem({ id: Option.match(decodeId(row), { onNone: () => null, onSome: ({ id }) => id }), problem })

/**
 * A row as an item: its columns decoded, then its payload checked against its kind's Schema. A
 * payload that is not its kind's is as malformed as a column that is not JSON, named by its path
 * (`payload.metadata.clickId: ...`).
 */
export const decodeItem = (row: unknown): Result.Result<OutboxItem, MalformedItem> =>
  Result.match(decodeRow(row), {
    onFailure: (error) => Result.fail(malformed(row, problemOf(error.issue))),
    onSuccess: (decoded) => Result.mapError(typedItem(decoded), (issue) => malformed(row, problemOf(issue, ["payload"])))
  })

/**
 * A payload about to be stored, as its JSON text, or why it cannot be stored. Checked against its
 * kind's Schema, as it will be when read back: a row that could not be read would never be sent.
 */
export const payloadJson = (input: AppendInput): Result.Result<string, string> => {
  const checked: Result.Result<unknown, SchemaIssue.Issue> = input.kind === "score"
    ? checkScoreEntry(input.payload)
    : input.kind === "click"
    ? checkClickBody(input.payload)
    : checkUndo(input.payload)
  return Result.match(checked, {
    onFailure: (issue) => Result.fail(problemOf(issue)),
    // The value itself, not a re-encoding: fields the Schema does not name are kept.
    onSuccess: () => Result.succeed(JSON.stringify(input.payload))
  })
}

/** What a malformed row's lane is, when that much of it can be read. */
export const decodeLane = Schema.decodeUnknownOption(Schema.Struct({ id: Schema.Int, place: Schema.String, kind: Kind }))

export const decodeLaneCounts = Schema.decodeUnknownResult(
  Schema.Array(Schema.Struct({ place: Schema.String, kind: Kind, state: State, count: Schema.Int }))
)

const EventScoreCountRow = Schema.Struct({ place: Schema.String, event_key: Schema.NullOr(Schema.String), count: Schema.Int })

export const decodeEventScoreCounts = (rows: unknown): Result.Result<ReadonlyArray<EventScoreCount>, Schema.SchemaError> =>
  Result.map(
    Schema.decodeUnknownResult(Schema.Array(EventScoreCountRow))(rows),
    (decoded) => decoded.map(({ place, event_key, count }) => ({ place, eventKey: event_key, count }))
  )
