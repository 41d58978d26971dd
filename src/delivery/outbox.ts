import * as path from "node:path"
import type { DatabaseSync } from "node:sqlite"
import { Clock, Context, Deferred, Effect, Layer, Option } from "effect"
import { Checkpointer } from "./checkpointer.ts"
import { GroupCommit } from "./group-commit.ts"
import { describeFailure, OutboxOpenError, OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"
import { openOutboxDatabase, outboxFileName } from "./outbox-database.ts"
import { type OutboxFiles, takeOverSyncing } from "./outbox-files.ts"
import { outboxStatements, type ItemRow } from "./outbox-statements.ts"
import { slowCommitReporter, slowSyncReporter } from "./slow-disk.ts"

export { OutboxOpenError, OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"

export type { ItemKind, ItemState } from "./item-kinds.ts"
import type { ItemKind, ItemState } from "./item-kinds.ts"

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
 * Durable outbox: an input is acknowledged only once `append` has returned, and by then the item
 * is on disk (WAL, fsynced off the event loop: see outbox-files.ts), so it survives kill -9 and
 * power loss. Writes commit on the event loop in well under a millisecond; their fsyncs run on
 * libuv's thread pool and are shared by the commits that wait for them (GroupCommit), so a slow
 * disk delays what waits for it, never stamps and never the sends of items already stored.
 */
export class Outbox extends Context.Service<Outbox, {
  append(input: AppendInput): Effect.Effect<OutboxItem, OutboxWriteError>
  /**
   * Appends several items in one transaction: a score entry and the auto-highlight it made are
   * stored together or not at all, so a crash between them can lose neither alone.
   */
  appendAll(inputs: ReadonlyArray<AppendInput>, options?: WriteOptions): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxWriteError>
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
  /**
   * Whether an item created at or after `since` was made from this broker message; when it was,
   * returns once that item is on disk, so the redelivery can be acknowledged.
   */
  storedFrom(receivedAs: string, since: number): Effect.Effect<boolean, OutboxReadError | OutboxWriteError>
  /**
   * Returns once the item's writes so far are on disk: nothing about it leaves the process before
   * that. Waits for its own writes only, never for another place's.
   */
  onDisk(id: number): Effect.Effect<void, OutboxWriteError>
  /** Runs `effect` after each append, as soon as the item is in the outbox (before it is on disk). */
  whenAppended(effect: Effect.Effect<void>): Effect.Effect<void>
  /**
   * Completes if the disk fails to store the outbox's writes. Every write fails from then on, and
   * only a new process can trust the file again (see GroupCommit.failed): the daemon exits.
   */
  readonly diskFailure: Effect.Effect<OutboxWriteError>
  readonly counts: Effect.Effect<ReadonlyArray<LaneCount>, OutboxReadError>
  /** Newest first. */
  recent(place: string, limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Newest first. */
  deadLetters(limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Deletes delivered/warning items settled before the given time; never pending, dead or missed. */
  prune(settledBefore: number): Effect.Effect<number, OutboxWriteError>
}>()("scorebridge/delivery/Outbox") {
  static readonly layer = (options: {
    readonly stateDirectory: string
    /** When to checkpoint (see Checkpointer); the defaults suit the daemon, tests make them frequent. */
    readonly checkpoint?: { readonly everyCommits: number; readonly whenQuietMs?: number }
  }): Layer.Layer<Outbox, OutboxOpenError> =>
    Layer.effect(Outbox, makeOutbox(options.stateDirectory, options.checkpoint ?? { everyCommits: 500 }))
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

/**
 * One fsync of the log at a time: a card or eMMC serves flushes one after another, so a second in
 * flight only queues behind the first, and the commits it covers wait longer than if they had
 * joined the next one (on the bench's slow block device, append to on-disk p50 730–880 ms with
 * one, 1240–1320 ms with two).
 */
const fsyncsInFlight = 1
/** How long a stop waits for fsyncs in flight before closing the files under them. */
const closeWaitMs = 3_000

interface Disk {
  readonly db: DatabaseSync
  readonly files: OutboxFiles
  readonly group: GroupCommit
  readonly checkpointer: Checkpointer
}

const makeOutbox = Effect.fnUntraced(function*(
  stateDirectory: string,
  checkpointWhen: { readonly everyCommits: number; readonly whenQuietMs?: number }
) {
  const file = path.join(stateDirectory, outboxFileName)
  // The fsyncs end on libuv's callbacks, outside any fiber: their warnings go to the daemon's logger.
  const logWith = Effect.runForkWith(yield* Effect.context<never>())
  const slowSync = slowSyncReporter(file)
  const slowCommit = slowCommitReporter(file)
  const warnIfDue = (report: string | undefined) => {
    if (report !== undefined) logWith(Effect.logWarning(report))
  }

  /** Items whose latest write may not be on disk yet, with that write's sequence number. */
  const unsynced = new Map<number, number>()
  const failedDisk = Deferred.makeUnsafe<Error>()

  const open = (): Disk => {
    const db = openOutboxDatabase(stateDirectory)
    try {
      const files = takeOverSyncing(db, file)
      const group = new GroupCommit({
        sync: files.syncLog,
        maxInFlight: fsyncsInFlight,
        onSynced: (tookMs) => warnIfDue(slowSync(tookMs, Date.now())),
        onDurable: (durableSeq) => {
          for (const [id, seq] of unsynced) if (seq <= durableSeq) unsynced.delete(id)
          checkpointer.runIfDue()
        },
        onFailed: (error) => Deferred.doneUnsafe(failedDisk, Effect.succeed(error))
      })
      const checkpointer: Checkpointer = new Checkpointer({
        group,
        checkpoint: () => db.exec("PRAGMA wal_checkpoint(PASSIVE)"),
        syncDatabase: files.syncDatabase,
        ...checkpointWhen,
        onError: (what, error) => logWith(Effect.logError(`${what} (${file}) failed: ${describeFailure(error)}`))
      })
      return { db, files, group, checkpointer }
    } catch (cause) {
      db.close()
      throw cause
    }
  }

  const close = (disk: Disk) =>
    Effect.gen(function*() {
      disk.checkpointer.stop()
      // An fsync still running (of the log, or of the database file after a checkpoint) would find its descriptor closed.
      const syncing = () => disk.group.fsyncsInFlight > 0 || disk.checkpointer.busy
      for (let waited = 0; syncing() && waited < closeWaitMs; waited += 10) yield* Effect.sleep(10)
      yield* Effect.sync(() => {
        disk.files.restoreSqliteSyncing()
        disk.db.close()
        disk.files.close()
      })
    })

  const { db, group, checkpointer } = yield* Effect.acquireRelease(
    Effect.try({ try: open, catch: (cause) => new OutboxOpenError({ path: file, reason: describeFailure(cause) }) }),
    close
  )
  const sql = yield* Effect.try({
    try: () => outboxStatements(db),
    catch: (cause) => new OutboxOpenError({ path: file, reason: describeFailure(cause) })
  })

  const writeError = (reason: string) => new OutboxWriteError({ path: file, reason })
  const diskFailed = (error: Error) =>
    writeError(`the disk failed to store outbox writes (${describeFailure(error)}); scorebridge ends (exit status 74) for systemd to start it again: what was acknowledged or sent is on disk, the rest is asked for again`)

  /** Commits on the event loop, once no checkpoint holds the gate; the result and its sequence number. */
  const commit = <A>(run: () => A): Effect.Effect<{ readonly value: A; readonly seq: number }, OutboxWriteError> =>
    Effect.suspend(() => {
      if (group.failed !== undefined) return Effect.fail(diskFailed(group.failed))
      if (!checkpointer.commitsMayStart) return Effect.andThen(checkpointer.gate.await, commit(run))
      const started = performance.now()
      return Effect.try({ try: run, catch: (cause) => writeError(describeFailure(cause)) }).pipe(
        Effect.map((value) => {
          warnIfDue(slowCommit(performance.now() - started, Date.now()))
          checkpointer.noteCommit()
          return { value, seq: group.committed() }
        })
      )
    })

  const durable = (seq: number) =>
    Effect.callback<void, OutboxWriteError>((resume) => {
      group.whenDurable(seq, (error) => resume(error === undefined ? Effect.void : Effect.fail(diskFailed(error))))
    })

  const appendListeners: Array<Effect.Effect<void>> = []
  const appended = Effect.suspend(() => Effect.forEach(appendListeners, (listener) => listener, { discard: true }))

  /**
   * Commits, notes which items it wrote, and (unless told `commit`) waits for the disk. Every write
   * counts, one that found its row already there too (a redelivered press): waiting for it then
   * waits for the fsync that covers the first one. Appends tell the listeners at the commit.
   */
  const write = <A>(
    run: () => A,
    touched: (value: A) => ReadonlyArray<number>,
    options: WriteOptions & { readonly append?: boolean } = {}
  ) =>
    Effect.flatMap(commit(run), ({ value, seq }) => {
      for (const id of touched(value)) unsynced.set(id, seq)
      const waited = options.wait === "commit" ? Effect.succeed(value) : Effect.as(durable(seq), value)
      return options.append === true ? Effect.andThen(appended, waited) : waited
    })
  const none = () => []

  const read = <A>(run: () => A) =>
    Effect.try({ try: run, catch: (cause) => new OutboxReadError({ path: file, reason: describeFailure(cause) }) })
  // Settling an item that is not there is a caller bug worth surfacing, not a silent no-op.
  const update = (id: number, run: () => { readonly changes: number | bigint }) =>
    write(() => {
      if (Number(run().changes) === 0) throw new Error(`there is no item ${id} in the outbox`)
    }, () => [id])

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
    return toItem(yield* write(() => insertRow(input), (row) => [row.id], { append: true }))
  })

  const appendAll = Effect.fn("Outbox.appendAll")(function*(inputs: ReadonlyArray<AppendInput>, options?: WriteOptions) {
    const rows = yield* write(
      () => inputs.length === 1 ? [insertRow(inputs[0]!)] : transaction(() => inputs.map(insertRow)),
      (rows) => rows.map((row) => row.id),
      { ...options, append: true }
    )
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
      }), (done) => [done.row.id, ...done.merged], { append: true })
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
      }, () => [id])),
    setEventKey: Effect.fn("Outbox.setEventKey")((id: number, eventKey: string) =>
      update(id, () => sql.setEventKey.run({ id, eventKey }))
    ),
    get: Effect.fn("Outbox.get")((id: number) => read(() => maybe(sql.byId.get({ id })))),
    storedFrom: Effect.fn("Outbox.storedFrom")(function*(receivedAs: string, since: number) {
      const stored = yield* read(() => sql.storedFrom.get({ receivedAs, since }) !== undefined)
      // Found, it may still be on its way to the disk: the redelivery is acknowledged after that.
      if (stored) yield* durable(group.latest)
      return stored
    }),
    onDisk: (id: number) => Effect.suspend(() => {
      const seq = unsynced.get(id)
      return seq === undefined ? Effect.void : durable(seq)
    }),
    whenAppended: (effect: Effect.Effect<void>) => Effect.sync(() => { appendListeners.push(effect) }),
    diskFailure: Effect.map(Deferred.await(failedDisk), diskFailed),
    lastOf: Effect.fn("Outbox.lastOf")((place: string, kind: ItemKind) =>
      read(() => maybe(sql.lastOf.get({ place, kind })))
    ),
    counts: read(() => sql.counts.all() as unknown as ReadonlyArray<LaneCount>).pipe(Effect.withSpan("Outbox.counts")),
    recent: Effect.fn("Outbox.recent")((place: string, limit: number) =>
      read(() => many(sql.recent.all({ place, limit })))
    ),
    deadLetters: Effect.fn("Outbox.deadLetters")((limit: number) => read(() => many(sql.deadLetters.all({ limit })))),
    prune: Effect.fn("Outbox.prune")((settledBefore: number) =>
      write(() => Number(sql.prune.run({ settledBefore }).changes), none)
    )
  })
})
