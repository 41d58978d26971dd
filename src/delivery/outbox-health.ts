import { Context, Effect, Result } from "effect"
import { type OutboxReadError, type OutboxWriteError, readingFrom } from "./outbox-errors.ts"
import { decodeLaneCounts, type LaneCount } from "./outbox-item.ts"
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
  /** How many items each lane holds in each state. */
  readonly counts: Effect.Effect<ReadonlyArray<LaneCount>, OutboxReadError>
}>()("scorebridge/delivery/OutboxHealth") {}

/** The counts per lane and state, as the file has them. */
export const laneCounts = (sql: OutboxStatements, file: string) =>
  readingFrom(file)(() =>
    Result.getOrThrowWith(decodeLaneCounts(sql.counts.all()), (error) => new Error(`the counts per lane: ${error.message}`))
  ).pipe(Effect.withSpan("OutboxHealth.counts"))
