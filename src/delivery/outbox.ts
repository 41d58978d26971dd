import { Context, Effect, Layer, type Option } from "effect"
import type { ItemKind } from "../domain/item-kinds.ts"
import { type CheckpointWhen, makeCommits } from "./outbox-commits.ts"
import { acquireOutboxDisk } from "./outbox-disk.ts"
import { describeFailure, OutboxOpenError, type OutboxReadError, type OutboxWriteError } from "./outbox-errors.ts"
import type { AppendInput, KindItem, LaneCount, OutboxItem, WriteOptions } from "./outbox-item.ts"
import type { ClipDetail, ClipOutcome, FollowUp } from "../domain/follow-up.ts"
import { makeFollowUps, type SettledFollowUps } from "./outbox-follow-ups.ts"
import { makeReads } from "./outbox-reads.ts"
import { outboxStatements } from "./outbox-statements.ts"
import { makeWrites } from "./outbox-writes.ts"
import type { OutboxDiskStats } from "./slow-disk.ts"

export { OutboxOpenError, OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"
export type { ItemKind, ItemState } from "../domain/item-kinds.ts"
export type { AppendInput, ItemOf, KindItem, KindPayload, LaneCount, OutboxItem, WriteOptions } from "./outbox-item.ts"
export { isKind } from "./outbox-item.ts"
export type { SettledFollowUps } from "./outbox-follow-ups.ts"
export type { OutboxDiskStats } from "./slow-disk.ts"

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
  pending<K extends ItemKind>(place: string, kind: K, limit: number): Effect.Effect<ReadonlyArray<KindItem<K>>, OutboxReadError>
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
  lastOf<K extends ItemKind>(place: string, kind: K): Effect.Effect<Option.Option<KindItem<K>>, OutboxReadError>
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
  /** Running totals of the log's fsyncs and of slow commits since the outbox opened: /metrics reads them at each scrape. */
  readonly diskStats: Effect.Effect<OutboxDiskStats>
  readonly counts: Effect.Effect<ReadonlyArray<LaneCount>, OutboxReadError>
  /** Newest first. */
  recent(place: string, limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Newest first. */
  deadLetters(limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Deletes delivered/warning items settled before the given time (and the follow-ups of the clicks gone); never pending, dead or missed. */
  prune(settledBefore: number): Effect.Effect<number, OutboxWriteError>
  /** The identity of the last press stored for a button slot (see PressIdentity), if any. */
  pressIdentity(slot: string): Effect.Effect<string | undefined, OutboxReadError>

  // Follow-ups: a click the service answered with a moment gets one, in its settlement's commit
  // (see follow-up.ts); an undo's deletion settles it as `deleted`.
  /** Open follow-ups due by `now`, most overdue first. */
  dueFollowUps(now: number, limit: number): Effect.Effect<ReadonlyArray<FollowUp>, OutboxReadError>
  /** When the next open follow-up is due, if one is open. */
  readonly nextFollowUpAt: Effect.Effect<number | undefined, OutboxReadError>
  readonly openFollowUps: Effect.Effect<number, OutboxReadError>
  followUpOf(clickId: number): Effect.Effect<FollowUp | undefined, OutboxReadError>
  /** Newest click first. */
  followUpsOf(place: string, limit: number): Effect.Effect<ReadonlyArray<FollowUp>, OutboxReadError>
  /** How many follow-ups of each place have settled, and when the last did. */
  readonly settledFollowUps: Effect.Effect<ReadonlyArray<SettledFollowUps>, OutboxReadError>
  /** A read that settled nothing: when to read next, and why the read failed if it did. */
  followUpRead(clickId: number, nextReadAt: number, lastError?: string): Effect.Effect<void, OutboxWriteError>
  /** Settles an open follow-up; false when it was settled already. `read`: the outcome came from a read (counted). */
  settleFollowUp(
    clickId: number,
    outcome: ClipOutcome,
    detail: ClipDetail,
    options: { readonly read: boolean; readonly lastError?: string }
  ): Effect.Effect<boolean, OutboxWriteError>
}>()("scorebridge/delivery/Outbox") {
  static readonly layer = (options: OutboxOptions): Layer.Layer<Outbox, OutboxOpenError> =>
    Layer.effect(Outbox, makeOutbox(options))
}

export interface OutboxOptions {
  readonly stateDirectory: string
  /** When to checkpoint (see Checkpointer); the defaults suit the daemon, tests make them frequent. */
  readonly checkpoint?: CheckpointWhen
  /** Clicks answered with a moment get a follow-up, first read this long after (ms); absent: none. */
  readonly followUps?: { readonly firstReadAfterMs: number }
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
  return Outbox.of({
    ...makeWrites(disk.db, sql, commits, options.followUps?.firstReadAfterMs),
    ...makeReads(sql, disk.file, commits.allOnDisk),
    ...makeFollowUps(sql, disk.file, commits),
    onDisk: commits.onDisk,
    whenAppended: commits.whenAppended,
    diskFailure: commits.diskFailure,
    diskStats: commits.diskStats
  })
})
