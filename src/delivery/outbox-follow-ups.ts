import { Clock, Effect, Option, Result, Schema } from "effect"
import { type ClipDetail, type ClipOutcome, clipOutcomes, type FollowUp } from "../domain/follow-up.ts"
import type { Commits } from "./outbox-commits.ts"
import { readingFrom } from "./outbox-errors.ts"
import { ClipFollowUps, type SettledFollowUps } from "./clip-follow-ups.ts"
import type { OutboxStatements } from "./outbox-statements.ts"

// The follow-ups' rows, decoded like the items' (outbox-item.ts): the file outlives its writer.
const Detail = Schema.fromJsonString(Schema.Struct({
  angles: Schema.optional(Schema.Number),
  videoURL: Schema.optional(Schema.String),
  thumbnailURL: Schema.optional(Schema.String),
  momentStatus: Schema.optional(Schema.String),
  readyAt: Schema.optional(Schema.Number),
  reason: Schema.optional(Schema.String)
}))

const FollowUpRow = Schema.Struct({
  click_id: Schema.Int,
  place: Schema.String,
  moment_key: Schema.String,
  pressed_at: Schema.Int,
  accepted_at: Schema.Int,
  reads: Schema.Int,
  next_read_at: Schema.Int,
  outcome: Schema.NullOr(Schema.Literals(clipOutcomes)),
  detail: Schema.NullOr(Detail),
  last_error: Schema.NullOr(Schema.String),
  settled_at: Schema.NullOr(Schema.Int)
})
// Columns a newer bridge added are dropped, as the items' are (see the rule in outbox-schema.ts).
const decodeRow = Schema.decodeUnknownResult(FollowUpRow, { onExcessProperty: "ignore" })

const toFollowUp = (row: typeof FollowUpRow.Type): FollowUp => ({
  clickId: row.click_id,
  place: row.place,
  momentKey: row.moment_key,
  pressedAt: row.pressed_at,
  acceptedAt: row.accepted_at,
  reads: row.reads,
  nextReadAt: row.next_read_at,
  outcome: row.outcome,
  detail: row.detail,
  lastError: row.last_error,
  settledAt: row.settled_at
})

/** Rows that cannot be read are passed over: a follow-up is worth less than the items it follows. */
const decoded = (rows: Iterable<unknown>, limit: number): Array<FollowUp> => {
  const out: Array<FollowUp> = []
  if (limit === 0) return out
  for (const row of rows) {
    const result = decodeRow(row)
    if (Result.isSuccess(result) && out.push(toFollowUp(result.success)) === limit) break
  }
  return out
}

// What a settlement's result says, read from the service's answer as stored (see the deliverer):
// a click's `{ momentKey }`, an undo's `{ clickItemId, deletedMomentKey }`.
const Settled = Schema.Struct({
  momentKey: Schema.optionalKey(Schema.String),
  clickItemId: Schema.optionalKey(Schema.Number),
  deletedMomentKey: Schema.optionalKey(Schema.Unknown)
})
const nothingSettled: typeof Settled.Type = {}
const settledOf = (result: unknown) => Option.getOrElse(Schema.decodeUnknownOption(Settled)(result), () => nothingSettled)

/**
 * Inside a settlement's transaction: a click the service answered with a moment starts its
 * follow-up, an undo that deleted a moment ends its click's. `firstReadAfterMs` undefined: clicks
 * are not followed.
 */
export const followUpOnSettle = (sql: OutboxStatements, firstReadAfterMs: number | undefined) =>
(id: number, result: unknown, settledAt: number): void => {
  const { momentKey, clickItemId: undone, deletedMomentKey } = settledOf(result)
  if (momentKey !== undefined && momentKey.length > 0 && firstReadAfterMs !== undefined) {
    sql.followUpInsert.run({ id, momentKey, acceptedAt: settledAt, nextReadAt: settledAt + firstReadAfterMs })
  }
  if (undone !== undefined && deletedMomentKey !== undefined) {
    sql.followUpDeleted.run({
      clickId: undone,
      detail: JSON.stringify({ reason: `undone: the moment was deleted by undo #${id}` } satisfies ClipDetail),
      settledAt
    })
  }
}

/** The outbox's follow-up queries and writes (one commit each, like the items'). */
export const makeFollowUps = (sql: OutboxStatements, file: string, { write }: Commits) => {
  const read = readingFrom(file)
  return ClipFollowUps.of({
    /** Open follow-ups whose next read is due by `now`, most overdue first. */
    dueFollowUps: (now: number, limit: number) => read(() => decoded(sql.followUpsDue.iterate({ now }), limit)),
    /** When the next open follow-up is due (ms), if any is open. */
    nextFollowUpAt: read(() => {
      const at = sql.followUpNext.get()?.["at"]
      return typeof at === "number" ? at : undefined
    }),
    openFollowUps: read(() => Number(sql.followUpsOpen.get()?.["count"] ?? 0)),
    followUpOf: (clickId: number) => read(() => decoded(sql.followUpOf.iterate({ clickId }), 1)[0]),
    /** Newest click first. */
    followUpsOf: (place: string, limit: number) => read(() => decoded(sql.followUpsOfPlace.iterate({ place }), limit)),
    /** Per place with any: the timeline's tag moves when one settles (see timeline-version.ts). */
    settledFollowUps: read(() =>
      sql.followUpsSettled.all().map((row): SettledFollowUps => ({
        place: String(row["place"]),
        count: Number(row["count"]),
        lastSettledAt: typeof row["last"] === "number" ? row["last"] : null
      }))
    ),
    /** A read that settled nothing: when to read next, and why it failed if it did. */
    followUpRead: Effect.fn("ClipFollowUps.followUpRead")((clickId: number, nextReadAt: number, lastError?: string) =>
      write(() => {
        sql.followUpRead.run({ clickId, nextReadAt, lastError: lastError ?? null })
      }, () => [])
    ),
    /** The follow-up's outcome; false when it was settled already (an undo's deletion came first). */
    settleFollowUp: Effect.fn("ClipFollowUps.settleFollowUp")(function*(
      clickId: number,
      outcome: ClipOutcome,
      detail: ClipDetail,
      options: { readonly read: boolean; readonly lastError?: string }
    ) {
      const settledAt = yield* Clock.currentTimeMillis
      return yield* write(() =>
        Number(sql.followUpSettle.run({
          clickId,
          outcome,
          detail: JSON.stringify(detail),
          lastError: options.lastError ?? null,
          read: options.read ? 1 : 0,
          settledAt
        }).changes) > 0, () => [])
    })
  })
}
