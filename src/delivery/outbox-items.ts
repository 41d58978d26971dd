import { Context, type Effect, type Option } from "effect"
import type { ItemKind } from "../domain/item-kinds.ts"
import type { OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"
import type { AppendInput, KindItem, OutboxItem, WriteOptions } from "./outbox-item.ts"
import type { ScoreLane } from "./lanes.ts"
import type { PendingLane } from "./outbox-reads.ts"
import type { LiveEvent, ScoreHeads } from "./outbox-score-heads.ts"

/**
 * The outbox's items: what is appended (scores, clicks, undos), their lanes, how each attempt and
 * settlement is marked, and the queries over them. One of the services `Outbox.layer` provides
 * over the same file (outbox.ts). An input is acknowledged only once `append` has returned, and
 * by then the item is on disk.
 */
export class OutboxItems extends Context.Service<OutboxItems, {
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
  /** The lanes with pending items (place and kind) and their oldest pending item's id, ordered by it. Nothing decoded: one seek per lane. */
  readonly lanes: Effect.Effect<ReadonlyArray<PendingLane>, OutboxReadError>
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
   * Returns once the item's writes so far are on disk: nothing about it leaves the process before
   * that. Waits for its own writes only, never for another place's.
   */
  onDisk(id: number): Effect.Effect<void, OutboxWriteError>
  /** Runs `effect` after each append, as soon as the item is in the outbox (before it is on disk). */
  whenAppended(effect: Effect.Effect<void>): Effect.Effect<void>
  /**
   * The heads of a place's two score lanes (see ScoreHeads): its live event's and its past events'.
   * `live`: the live event as known (null: the service said none runs); undefined while not known,
   * and the newest pending score's event is taken as the live one. A few seeks, whatever the backlog.
   * `lanes`: the lanes to read (default both); the heads of the others are none.
   */
  scoreHeads(place: string, live: LiveEvent, lanes?: ReadonlyArray<ScoreLane>): Effect.Effect<ScoreHeads, OutboxReadError>
  /** Newest first. */
  recent(place: string, limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /**
   * Newest first, at most `limit`, ending before the first item `goOn` refuses: it sees each item
   * in that order, so a reader stops once past what it wants (the timeline, past its event).
   */
  recentWhile(place: string, limit: number, goOn: (item: OutboxItem) => boolean): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Newest first. */
  deadLetters(limit: number): Effect.Effect<ReadonlyArray<OutboxItem>, OutboxReadError>
  /** Deletes delivered/warning items settled before the given time (and the follow-ups of the clicks gone); never pending, dead or missed. */
  prune(settledBefore: number): Effect.Effect<number, OutboxWriteError>
}>()("scorebridge/delivery/OutboxItems") {}
