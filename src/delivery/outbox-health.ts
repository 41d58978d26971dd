import type { DatabaseSync } from "node:sqlite"
import { Context, Effect, Result } from "effect"
import type { Commits } from "./outbox-commits.ts"
import { type OutboxReadError, type OutboxWriteError, readingFrom } from "./outbox-errors.ts"
import { decodeEventScoreCounts, decodeLaneCounts, type EventScoreCount, type LaneCount } from "./outbox-item.ts"
import type { OutboxIntegrity } from "./outbox-integrity.ts"
import type { OutboxStatements } from "./outbox-statements.ts"
import type { OutboxDiskStats } from "./slow-disk.ts"

/**
 * How the outbox is doing, for whoever watches it (the daemon's end on a failed disk, /metrics,
 * the status page, the watchdog): its disk and how much it holds. One of the services
 * `Outbox.layer` provides over the same file (outbox.ts).
 */
export class OutboxHealth extends Context.Service<OutboxHealth, {
  /**
   * Completes if the disk fails to store the outbox's writes. Every write fails from then on, and
   * only a new process can trust the file again (see GroupCommit.failed): the daemon exits.
   */
  readonly diskFailure: Effect.Effect<OutboxWriteError>
  /** Running totals of the log's fsyncs and of slow commits since the outbox opened: /metrics reads them at each scrape. */
  readonly diskStats: Effect.Effect<OutboxDiskStats>
  /** How many items each lane holds in each state. Kept as the outbox changes: reading them reads no item. */
  readonly counts: Effect.Effect<ReadonlyArray<LaneCount>, OutboxReadError>
  /** Pending score entries per place and event key (null included), from the same kept counts. */
  readonly pendingScoresByEvent: Effect.Effect<ReadonlyArray<EventScoreCount>, OutboxReadError>
  /** Whether the file is sound, as far as the check of the whole file after the open has got (outbox-integrity.ts). */
  readonly integrity: Effect.Effect<OutboxIntegrity>
}>()("scorebridge/delivery/OutboxHealth") {}

/** The counts per lane and state, as the file keeps them (item_counts, see outbox-schema.ts). */
export const laneCounts = (sql: OutboxStatements, file: string) =>
  readingFrom(file)(() =>
    Result.getOrThrowWith(decodeLaneCounts(sql.counts.all()), (error) => new Error(`the counts per lane: ${error.message}`))
  ).pipe(Effect.withSpan("OutboxHealth.counts"))

/** The pending scores per place and event, as the file keeps them. */
export const pendingScoresByEvent = (sql: OutboxStatements, file: string) =>
  readingFrom(file)(() =>
    Result.getOrThrowWith(
      decodeEventScoreCounts(sql.pendingScoresByEvent.all()),
      (error) => new Error(`the pending scores per event: ${error.message}`)
    )
  ).pipe(Effect.withSpan("OutboxHealth.pendingScoresByEvent"))

/** Counts the items again into item_counts, in one commit: only when the kept counts were found wrong. */
export const rebuildCounts = (db: DatabaseSync, sql: OutboxStatements, { write }: Commits) =>
  write(() => {
    db.exec("BEGIN IMMEDIATE")
    try {
      sql.countsCleared.run()
      sql.countsFromItems.run()
      db.exec("COMMIT")
    } catch (cause) {
      if (db.isTransaction) db.exec("ROLLBACK")
      throw cause
    }
  }, () => [], { wait: "commit" })
