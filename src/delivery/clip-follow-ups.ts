import { Context, type Effect } from "effect"
import type { ClipDetail, ClipOutcome, FollowUp } from "../domain/follow-up.ts"
import type { OutboxReadError, OutboxWriteError } from "./outbox-errors.ts"

/** A place's settled follow-ups: how many, and when the last one settled (ms). */
export interface SettledFollowUps {
  readonly place: string
  readonly count: number
  readonly lastSettledAt: number | null
}

/**
 * The clips the outbox follows: a click the service answered with a moment gets a follow-up, in
 * its settlement's commit (see follow-up.ts); an undo's deletion settles it as `deleted`. One of
 * the services `Outbox.layer` provides over the same file (outbox.ts; rows in outbox-follow-ups.ts).
 */
export class ClipFollowUps extends Context.Service<ClipFollowUps, {
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
}>()("scorebridge/delivery/ClipFollowUps") {}
