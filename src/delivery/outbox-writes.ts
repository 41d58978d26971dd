import type { DatabaseSync } from "node:sqlite"
import { Clock, Effect, Result } from "effect"
import type { ItemState } from "../domain/item-kinds.ts"
import type { Commits } from "./outbox-commits.ts"
import { followUpOnSettle } from "./outbox-follow-ups.ts"
import { type AppendInput, decodeItem, type OutboxItem, payloadJson, type WriteOptions } from "./outbox-item.ts"
import type { OutboxStatements } from "./outbox-statements.ts"

const toJson = (value: unknown, what: string): string => {
  const text = JSON.stringify(value)
  if (text === undefined) throw new Error(`the ${what} cannot be stored as JSON`)
  return text
}

const storedResult = (result: unknown) => (result === undefined || result === null ? null : toJson(result, "result"))

// A throw inside a write fails it, and rolls back the transaction it is in.
const itemOf = (row: unknown): OutboxItem => Result.getOrThrowWith(decodeItem(row), (malformed) => new Error(malformed.message))

type Write = Commits["write"]

/** One commit, one fsync; a throw rolls every statement back. */
const transactionOn = (db: DatabaseSync) => <A>(run: () => A): A => {
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

/** Stores an item (inside a write), or finds the one its dedupe key already stored. */
const inserting = (sql: OutboxStatements) => {
  const inserted = (input: AppendInput): OutboxItem => {
    const dedupeKey = input.dedupeKey ?? null
    // Refused before it is stored: a row that cannot be read back would never be sent.
    const payload = Result.getOrThrowWith(payloadJson(input), (problem) => new Error(`the payload cannot be stored (${problem})`))
    const { lastInsertRowid } = sql.insert.run({
      place: input.place,
      kind: input.kind,
      payload,
      eventKey: input.eventKey ?? null,
      dedupeKey,
      createdAt: input.createdAt,
      notBefore: input.notBefore ?? input.createdAt,
      receivedAs: input.receivedAs ?? null
    })
    const row = sql.byId.get({ id: lastInsertRowid })
    if (row === undefined) throw new Error("the database returned no row for the appended item")
    return itemOf(row)
  }
  return (input: AppendInput): OutboxItem => {
    const dedupeKey = input.dedupeKey ?? null
    // Looked up first rather than ON CONFLICT: a duplicate must not even advance the id sequence.
    const existing = dedupeKey === null ? undefined : sql.byDedupeKey.get({ dedupeKey })
    if (existing !== undefined) return itemOf(existing)
    const item = inserted(input)
    if (input.pressIdentity !== undefined) {
      sql.identityStore.run({ ...input.pressIdentity, itemId: item.id, seenAt: input.createdAt })
    }
    return item
  }
}

/** The appends: one item, several together, or one that replaces unsent items (merged into it). */
const makeAppends = (db: DatabaseSync, sql: OutboxStatements, write: Write) => {
  const transaction = transactionOn(db)
  const insert = inserting(sql)
  return {
    append: Effect.fn("Outbox.append")((input: AppendInput) =>
      // With a press identity, the item and the identity are stored together or not at all.
      write(() => (input.pressIdentity === undefined ? insert(input) : transaction(() => insert(input))), (item) => [item.id], { append: true })
    ),
    appendAll: Effect.fn("Outbox.appendAll")((inputs: ReadonlyArray<AppendInput>, options?: WriteOptions) =>
      write(
        () => (inputs.length === 1 ? [insert(inputs[0]!)] : transaction(() => inputs.map(insert))),
        (items) => items.map((item) => item.id),
        { ...options, append: true }
      )
    ),
    appendMerging: Effect.fn("Outbox.appendMerging")(function*(input: AppendInput, merge: ReadonlyArray<number>) {
      const settledAt = yield* Clock.currentTimeMillis
      return yield* write(() =>
        transaction(() => {
          const item = insert(input)
          const merged = merge.filter((id) =>
            Number(sql.merged.run({
              id,
              lastError: `merged into press click #${item.id}: one click, the press's`,
              result: toJson({ mergedInto: item.id }, "result"),
              settledAt
            }).changes) > 0
          )
          return { item, merged }
        }), (done) => [done.item.id, ...done.merged], { append: true })
    })
  }
}

/** Settling an item that is not there is a caller bug worth surfacing, not a silent no-op. */
const updating = (write: Write) => (id: number, run: () => { readonly changes: number | bigint }) =>
  write(() => {
    if (Number(run().changes) === 0) throw new Error(`there is no item ${id} in the outbox`)
  }, () => [id])

/** The settlements of an attempt: delivered, warning, dead, missed. */
const makeSettlements = (db: DatabaseSync, sql: OutboxStatements, write: Write, firstReadAfterMs: number | undefined) => {
  const transaction = transactionOn(db)
  const followUp = followUpOnSettle(sql, firstReadAfterMs)
  const update = updating(write)
  // A click answered with a moment starts its follow-up in the same commit: a kill between the
  // two could otherwise leave a delivered click nobody follows.
  const settle = (state: ItemState) => (id: number, lastError: string | null, result: unknown) =>
    Effect.flatMap(Clock.currentTimeMillis, (settledAt) =>
      update(id, () =>
        transaction(() => {
          const done = sql.settle.run({ id, state, lastError, result: storedResult(result), settledAt })
          if (Number(done.changes) > 0) followUp(id, result, settledAt)
          return done
        })
      ))
  const toDelivered = settle("delivered")
  const toWarning = settle("warning")
  const toDead = settle("dead")
  return {
    markDelivered: Effect.fn("Outbox.markDelivered")((id: number, result: unknown) => toDelivered(id, null, result)),
    markWarning: Effect.fn("Outbox.markWarning")((id: number, warning: string, result?: unknown) =>
      toWarning(id, warning, result)
    ),
    markDead: Effect.fn("Outbox.markDead")((id: number, error: string) => toDead(id, error, null)),
    markMissed: Effect.fn("Outbox.markMissed")(function*(id: number, reason: string, result?: unknown) {
      const settledAt = yield* Clock.currentTimeMillis
      yield* update(id, () =>
        transaction(() => {
          const done = sql.missed.run({ id, lastError: reason, result: storedResult(result), settledAt })
          // A late click may still have made a moment from what footage was left: followed too.
          if (Number(done.changes) > 0) followUp(id, result, settledAt)
          return done
        })
      )
    })
  }
}

/** What happens to an item between its attempts (deferred, in doubt, its event), and pruning the settled. */
const makeMarks = (db: DatabaseSync, sql: OutboxStatements, write: Write) => {
  const transaction = transactionOn(db)
  const update = updating(write)
  return {
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
      }, () => [id])
    ),
    setEventKey: Effect.fn("Outbox.setEventKey")((id: number, eventKey: string) =>
      update(id, () => sql.setEventKey.run({ id, eventKey }))
    ),
    prune: Effect.fn("Outbox.prune")((settledBefore: number) =>
      write(() =>
        transaction(() => {
          const pruned = Number(sql.prune.run({ settledBefore }).changes)
          sql.followUpPrune.run()
          return pruned
        }), () => [])
    )
  }
}

/** The outbox's writes: appends, settlements and marks, each one commit (see outbox-commits.ts). */
export const makeWrites = (
  db: DatabaseSync,
  sql: OutboxStatements,
  { write }: Commits,
  /** See OutboxOptions.followUps. */
  firstReadAfterMs: number | undefined
) => ({
  ...makeAppends(db, sql, write),
  ...makeSettlements(db, sql, write, firstReadAfterMs),
  ...makeMarks(db, sql, write)
})
