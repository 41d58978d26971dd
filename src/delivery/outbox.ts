import * as path from "node:path"
import type { DatabaseSync } from "node:sqlite"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { describeFailure, OutboxOpenError, OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"
import { openOutboxDatabase, outboxFileName } from "./outbox-database.ts"
import { outboxStatements, type ItemRow } from "./outbox-statements.ts"
import { slowDiskReporter } from "./slow-disk.ts"

export { OutboxOpenError, OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"

export type ItemKind = "click" | "score" | "undo"
export type ItemState = "pending" | "delivered" | "warning" | "dead" | "missed"

export interface OutboxItem {
  /** Monotonically increasing, never reused; lane order. */
  readonly id: number
  /** The lane: one place. */
  readonly place: string
  readonly kind: ItemKind
  /** JSON: score entry body, click body, or `{ momentKey }`. */
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
}

export interface LaneCount {
  readonly place: string
  readonly kind: ItemKind
  readonly state: ItemState
  readonly count: number
}

/**
 * Durable outbox: an input is acknowledged only once `append` has returned, and by then the item
 * is fsynced (WAL, synchronous=FULL), so it survives kill -9 and power loss.
 */
export class Outbox extends Context.Service<Outbox, {
  append(input: AppendInput): Effect.Effect<OutboxItem, OutboxWriteError>
  /**
   * Appends several items in one transaction (one fsync): a score entry and the auto-highlight it
   * made are stored together or not at all, so a crash between them can lose neither alone.
   */
  appendAll(inputs: ReadonlyArray<AppendInput>): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxWriteError>
  /**
   * Appends an item and, in the same transaction, settles the given pending, unsent items as merged
   * into it (state warning, result `{ mergedInto }`): a press that replaces an auto-highlight.
   * Returns the item and the ids actually merged (one already sent is left alone).
   */
  appendMerging(input: AppendInput, merge: ReadonlyArray<number>): Effect.Effect<
    { readonly item: OutboxItem; readonly merged: ReadonlyArray<number> },
    OutboxWriteError
  >
  /** For each place, the oldest pending item of each kind, ordered by id. Cheap: one seek per lane. */
  readonly heads: Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** The oldest pending items of one place and kind, oldest first, at most `limit`. */
  pending(place: string, kind: ItemKind, limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  markDelivered(id: number, result: unknown): Effect.Effect<void, OutboxWriteError>
  /** Settled but worth showing, e.g. "no event running". */
  markWarning(id: number, warning: string, result?: unknown): Effect.Effect<void, OutboxWriteError>
  /** Would never succeed unchanged: kept as a dead letter. */
  markDead(id: number, error: string): Effect.Effect<void, OutboxWriteError>
  /** A click whose footage expired before it could be delivered; `result`: what the service answered, or `{ skipped: true }` when it was not sent. */
  markMissed(id: number, reason: string, result?: unknown): Effect.Effect<void, OutboxWriteError>
  /**
   * Counts an attempt and defers the item; it stays pending and stays the head of its lane.
   * `inDoubt`: the request may have reached the service (timeout, reset), so the next attempt
   * reconciles before resending.
   */
  reschedule(id: number, error: string, notBefore: number, inDoubt?: boolean): Effect.Effect<void, OutboxWriteError>
  /** Written (durably) just before a request: if the process dies now, the item is in doubt. */
  markSending(id: number, sentTo: string): Effect.Effect<void, OutboxWriteError>
  /** Takes back `markSending` when the request never left (shut down while it waited for its slot). */
  unmarkSending(id: number): Effect.Effect<void, OutboxWriteError>
  setEventKey(id: number, eventKey: string): Effect.Effect<void, OutboxWriteError>
  get(id: number): Effect.Effect<Option.Option<OutboxItem>, OutboxReadError>
  /** Latest appended item of that kind in any state: change detection after a restart. */
  lastOf(place: string, kind: ItemKind): Effect.Effect<Option.Option<OutboxItem>, OutboxReadError>
  /** Whether an item created at or after `since` was made from this broker message. */
  storedFrom(receivedAs: string, since: number): Effect.Effect<boolean, OutboxReadError>
  readonly counts: Effect.Effect<ReadonlyArray<LaneCount>, OutboxReadError>
  /** Newest first. */
  recent(place: string, limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Newest first. */
  deadLetters(limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Deletes delivered/warning items settled before the given time; never pending, dead or missed. */
  prune(settledBefore: number): Effect.Effect<number, OutboxWriteError>
}>()("scorebridge/delivery/Outbox") {
  static readonly layer = (options: { readonly stateDirectory: string }): Layer.Layer<Outbox, OutboxOpenError> =>
    Layer.effect(Outbox, makeOutbox(options.stateDirectory))
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text))

const toItem = (row: ItemRow): OutboxItem => ({
  id: row.id,
  place: row.place,
  kind: row.kind,
  payload: parseJson(row.payload),
  eventKey: row.event_key,
  dedupeKey: row.dedupe_key,
  createdAt: row.created_at,
  attempts: row.attempts,
  notBefore: row.not_before,
  state: row.state,
  lastError: row.last_error,
  result: parseJson(row.result),
  settledAt: row.settled_at,
  sentAt: row.sent_at,
  sentTo: row.sent_to
})

const toJson = (value: unknown, what: string): string => {
  const text = JSON.stringify(value)
  if (text === undefined) throw new Error(`the ${what} cannot be stored as JSON`)
  return text
}

const makeOutbox = Effect.fnUntraced(function*(stateDirectory: string) {
  const file = path.join(stateDirectory, outboxFileName)
  const db: DatabaseSync = yield* Effect.acquireRelease(
    Effect.try({
      try: () => openOutboxDatabase(stateDirectory),
      catch: (cause) => new OutboxOpenError({ path: file, reason: describeFailure(cause) })
    }),
    (db) => Effect.sync(() => db.close())
  )
  const sql = yield* Effect.try({
    try: () => outboxStatements(db),
    catch: (cause) => new OutboxOpenError({ path: file, reason: describeFailure(cause) })
  })

  const slowDisk = slowDiskReporter(file, { thresholdMs: 100, everyMs: 60_000 })
  const write = <A>(run: () => A) =>
    Effect.suspend(() => {
      const started = performance.now()
      return Effect.try({ try: run, catch: (cause) => new OutboxWriteError({ path: file, reason: describeFailure(cause) }) }).pipe(
        Effect.tap(() =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const report = slowDisk(performance.now() - started, now)
            return report === undefined ? Effect.void : Effect.logWarning(report)
          })
        )
      )
    })
  const read = <A>(run: () => A) =>
    Effect.try({ try: run, catch: (cause) => new OutboxReadError({ path: file, reason: describeFailure(cause) }) })
  // Settling an item that is not there is a caller bug worth surfacing, not a silent no-op.
  const update = (id: number, run: () => { readonly changes: number | bigint }) =>
    write(() => {
      if (Number(run().changes) === 0) throw new Error(`there is no item ${id} in the outbox`)
    })

  const insertRow = (input: AppendInput): ItemRow => {
    const dedupeKey = input.dedupeKey ?? null
    // Looked up first rather than ON CONFLICT: a duplicate must not even advance the id sequence.
    const existing = dedupeKey === null ? undefined : sql.byDedupeKey.get({ dedupeKey })
    if (existing !== undefined) return existing as unknown as ItemRow
    const { lastInsertRowid } = sql.insert.run({
      place: input.place,
      kind: input.kind,
      payload: toJson(input.payload, "payload"),
      eventKey: input.eventKey ?? null,
      dedupeKey,
      createdAt: input.createdAt,
      notBefore: input.notBefore ?? input.createdAt,
      receivedAs: input.receivedAs ?? null
    })
    const row = sql.byId.get({ id: lastInsertRowid })
    if (row === undefined) throw new Error("the database returned no row for the appended item")
    return row as unknown as ItemRow
  }

  // One commit, one fsync; a throw rolls every statement back.
  const transaction = <A>(run: () => A): A => {
    db.exec("BEGIN IMMEDIATE")
    try {
      const result = run()
      db.exec("COMMIT")
      return result
    } catch (cause) {
      if (db.isTransaction) db.exec("ROLLBACK")
      throw cause
    }
  }

  const append = Effect.fn("Outbox.append")(function*(input: AppendInput) {
    return toItem(yield* write(() => insertRow(input)))
  })

  const appendAll = Effect.fn("Outbox.appendAll")(function*(inputs: ReadonlyArray<AppendInput>) {
    const rows = yield* write(() => inputs.length === 1 ? [insertRow(inputs[0]!)] : transaction(() => inputs.map(insertRow)))
    return rows.map(toItem)
  })

  const appendMerging = Effect.fn("Outbox.appendMerging")(function*(input: AppendInput, merge: ReadonlyArray<number>) {
    const settledAt = yield* Clock.currentTimeMillis
    const done = yield* write(() =>
      transaction(() => {
        const row = insertRow(input)
        const merged = merge.filter((id) =>
          Number(sql.merged.run({
            id,
            lastError: `merged into press click #${row.id}: one click, the press's`,
            result: toJson({ mergedInto: row.id }, "result"),
            settledAt
          }).changes) > 0
        )
        return { row, merged }
      })
    )
    return { item: toItem(done.row), merged: done.merged }
  })

  const many = (rows: ReadonlyArray<unknown>) => (rows as ReadonlyArray<ItemRow>).map(toItem)
  const maybe = (row: unknown) => (row === undefined ? Option.none() : Option.some(toItem(row as ItemRow)))

  const settle = (state: ItemState) => (id: number, lastError: string | null, result: unknown) =>
    Effect.flatMap(Clock.currentTimeMillis, (settledAt) =>
      update(id, () =>
        sql.settle.run({
          id,
          state,
          lastError,
          result: result === undefined || result === null ? null : toJson(result, "result"),
          settledAt
        })))

  const toDelivered = settle("delivered")
  const toWarning = settle("warning")
  const toDead = settle("dead")

  return Outbox.of({
    append,
    appendAll,
    appendMerging,
    heads: read(() => many(sql.heads.all())).pipe(Effect.withSpan("Outbox.heads")),
    pending: Effect.fn("Outbox.pending")((place: string, kind: ItemKind, limit: number) =>
      read(() => many(sql.pending.all({ place, kind, limit })))
    ),
    markDelivered: Effect.fn("Outbox.markDelivered")((id: number, result: unknown) => toDelivered(id, null, result)),
    markWarning: Effect.fn("Outbox.markWarning")((id: number, warning: string, result?: unknown) =>
      toWarning(id, warning, result)
    ),
    markDead: Effect.fn("Outbox.markDead")((id: number, error: string) => toDead(id, error, null)),
    markMissed: Effect.fn("Outbox.markMissed")(function*(id: number, reason: string, result?: unknown) {
      const settledAt = yield* Clock.currentTimeMillis
      const stored = result === undefined || result === null ? null : toJson(result, "result")
      yield* update(id, () => sql.missed.run({ id, lastError: reason, result: stored, settledAt }))
    }),
    reschedule: Effect.fn("Outbox.reschedule")((id: number, error: string, notBefore: number, inDoubt = false) =>
      update(id, () => sql.reschedule.run({ id, lastError: error, notBefore, inDoubt: inDoubt ? 1 : 0 }))
    ),
    markSending: Effect.fn("Outbox.markSending")(function*(id: number, sentTo: string) {
      const sentAt = yield* Clock.currentTimeMillis
      yield* update(id, () => sql.sending.run({ id, sentAt, sentTo }))
    }),
    unmarkSending: Effect.fn("Outbox.unmarkSending")((id: number) =>
      write(() => {
        sql.notSent.run({ id })
      })),
    setEventKey: Effect.fn("Outbox.setEventKey")((id: number, eventKey: string) =>
      update(id, () => sql.setEventKey.run({ id, eventKey }))
    ),
    get: Effect.fn("Outbox.get")((id: number) => read(() => maybe(sql.byId.get({ id })))),
    storedFrom: Effect.fn("Outbox.storedFrom")((receivedAs: string, since: number) =>
      read(() => sql.storedFrom.get({ receivedAs, since }) !== undefined)),
    lastOf: Effect.fn("Outbox.lastOf")((place: string, kind: ItemKind) =>
      read(() => maybe(sql.lastOf.get({ place, kind })))
    ),
    counts: read(() => sql.counts.all() as unknown as ReadonlyArray<LaneCount>).pipe(Effect.withSpan("Outbox.counts")),
    recent: Effect.fn("Outbox.recent")((place: string, limit: number) =>
      read(() => many(sql.recent.all({ place, limit })))
    ),
    deadLetters: Effect.fn("Outbox.deadLetters")((limit: number) => read(() => many(sql.deadLetters.all({ limit })))),
    prune: Effect.fn("Outbox.prune")((settledBefore: number) =>
      write(() => Number(sql.prune.run({ settledBefore }).changes))
    )
  })
})
