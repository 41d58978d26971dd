import { Context, Effect, Layer } from "effect"
import { ClipFollowUps } from "./clip-follow-ups.ts"
import { type CheckpointWhen, makeCommits } from "./outbox-commits.ts"
import { acquireOutboxDisk } from "./outbox-disk.ts"
import { describeFailure, OutboxOpenError } from "./outbox-errors.ts"
import { makeFollowUps } from "./outbox-follow-ups.ts"
import { laneCounts, OutboxHealth, pendingScoresByEvent, rebuildCounts } from "./outbox-health.ts"
import { defaultIntegrity, type IntegrityOptions, watchIntegrity } from "./outbox-integrity.ts"
import { OutboxItems } from "./outbox-items.ts"
import { makeReads } from "./outbox-reads.ts"
import { outboxStatements } from "./outbox-statements.ts"
import { makeWrites } from "./outbox-writes.ts"
import { makePressIdentities, PressIdentities } from "./press-identities.ts"

export { OutboxOpenError, OutboxReadError, OutboxWriteError, type OutboxStorageError } from "./outbox-errors.ts"
export type { ItemKind, ItemState } from "../domain/item-kinds.ts"
export type { AppendInput, EventScoreCount, ItemOf, KindItem, KindPayload, LaneCount, OutboxItem, WriteOptions } from "./outbox-item.ts"
export { isKind } from "./outbox-item.ts"
export { ClipFollowUps, type SettledFollowUps } from "./clip-follow-ups.ts"
export { OutboxHealth } from "./outbox-health.ts"
export type { OutboxIntegrity } from "./outbox-integrity.ts"
export { OutboxItems } from "./outbox-items.ts"
export type { LiveEvent, ScoreHeads } from "./outbox-score-heads.ts"
export { PressIdentities } from "./press-identities.ts"
export type { OutboxDiskStats } from "./slow-disk.ts"

/**
 * Durable outbox: an input is acknowledged only once `append` has returned, and by then the item
 * is on disk (WAL, fsynced off the event loop: see outbox-files.ts), so it survives kill -9 and
 * power loss. Writes commit on the event loop in well under a millisecond; their fsyncs run on
 * libuv's thread pool and are shared by the commits that wait for them (GroupCommit), so a slow
 * disk delays what waits for it, never stamps and never the sends of items already stored.
 *
 * One file, four services by job, each saying what it holds: the items (OutboxItems), the clips
 * followed after their clicks (ClipFollowUps), what tells a press already stored (PressIdentities),
 * and the disk's health and the lanes' sizes (OutboxHealth). `Outbox` names all four.
 */
export type Outbox = OutboxItems | ClipFollowUps | PressIdentities | OutboxHealth

export interface OutboxOptions {
  readonly stateDirectory: string
  /** When to checkpoint (see Checkpointer); the defaults suit the daemon, tests make them frequent. */
  readonly checkpoint?: CheckpointWhen
  /** Clicks answered with a moment get a follow-up, first read this long after (ms); absent: none. */
  readonly followUps?: { readonly firstReadAfterMs: number }
  /** When the whole file is checked, off the event loop (see outbox-integrity.ts); default 5 s after the open. */
  readonly integrityCheck?: IntegrityOptions
}

/**
 * The parts, one job each: the file from open to close (outbox-disk.ts), commits and their fsyncs
 * (outbox-commits.ts), and the items' queries and writes (outbox-reads.ts, outbox-writes.ts) over
 * rows decoded by outbox-item.ts. Released in reverse: the checkpointer stops, then the file closes.
 */
const makeOutbox = Effect.fnUntraced(function*(options: OutboxOptions) {
  const disk = yield* acquireOutboxDisk(options.stateDirectory)
  const commits = yield* makeCommits(disk, options.checkpoint ?? { everyCommits: 500 })
  const sql = yield* Effect.try({
    try: () => outboxStatements(disk.db),
    catch: (cause) => new OutboxOpenError({ path: disk.file, reason: describeFailure(cause) })
  })
  const items = OutboxItems.of({
    ...makeWrites(disk.db, sql, commits, options.followUps?.firstReadAfterMs),
    ...makeReads(sql, disk.file),
    onDisk: commits.onDisk,
    whenAppended: commits.whenAppended
  })
  const integrity = yield* watchIntegrity(disk.file, options.integrityCheck ?? defaultIntegrity, rebuildCounts(disk.db, sql, commits))
  const health = OutboxHealth.of({
    diskFailure: commits.diskFailure,
    diskStats: commits.diskStats,
    counts: laneCounts(sql, disk.file),
    pendingScoresByEvent: pendingScoresByEvent(sql, disk.file),
    integrity
  })
  return Context.make(OutboxItems, items).pipe(
    Context.add(ClipFollowUps, makeFollowUps(sql, disk.file, commits)),
    Context.add(PressIdentities, makePressIdentities(sql, disk.file, commits.allOnDisk)),
    Context.add(OutboxHealth, health)
  )
})

/** The outbox in a state directory: its four services (see `Outbox`), over one file, in one line of wiring. */
export const Outbox = {
  layer: (options: OutboxOptions): Layer.Layer<Outbox, OutboxOpenError> => Layer.effectContext(makeOutbox(options))
}
