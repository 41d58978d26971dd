import { Option, Result } from "effect"
import { decodeItem, type KindItem, type MalformedItem } from "./outbox-item.ts"
import type { ScoreLane } from "./lanes.ts"
import type { OutboxStatements } from "./outbox-statements.ts"

/**
 * A place's two score lanes after a long outage (docs/guarantees.md, live first): its live event's
 * entries, and those of past events. A pending score is live when its event key is null or the live
 * event's; past when it names another event. Each head is a seek into items_pending_event, and the
 * past head one more per past event: a weekend's backlog of entries costs a few seeks, not a scan.
 */
export interface ScoreHeads {
  /** The newest pending live score. */
  readonly latest: Option.Option<KindItem<"score">>
  readonly oldestLive: Option.Option<KindItem<"score">>
  readonly oldestPast: Option.Option<KindItem<"score">>
  /** The live event's key the read used (the caller's, or the newest pending score's when it gave none). */
  readonly liveEventKey: string | null
}

/** What the caller knows of the place's live event: undefined while nobody has said (no answer yet since the start). */
export type LiveEvent = { readonly eventKey: string | null } | undefined

/** The first readable score of the rows; the malformed ones before it are kept for the report, and passed over. */
const firstScore = (rows: Iterable<unknown>, malformed: Array<MalformedItem>): KindItem<"score"> | undefined => {
  // Breaking out of the loop resets the statement, ending its read of the database.
  for (const row of rows) {
    const item = decodeItem(row)
    if (Result.isFailure(item)) malformed.push(item.failure)
    else if (item.success.kind === "score") return item.success
  }
  return undefined
}

const older = <A extends { readonly id: number }>(a: A | undefined, b: A | undefined) =>
  a === undefined ? b : b === undefined || a.id < b.id ? a : b

const newer = <A extends { readonly id: number }>(a: A | undefined, b: A | undefined) =>
  a === undefined ? b : b === undefined || a.id > b.id ? a : b

/** The newest pending score's event key: the live event's, as far as the outbox knows, while no answer said. */
const newestScoreEvent = (sql: OutboxStatements, place: string): string | null => {
  const key = sql.newestScoreEvent.get({ place })?.["event_key"]
  return typeof key === "string" ? key : null
}

/**
 * The oldest readable pending score among the past events', one seek per event: oldest first by
 * each event's oldest pending id, stopping once no later event can hold an older one (a malformed
 * oldest makes its event's next readable score the candidate).
 */
const oldestPast = (sql: OutboxStatements, place: string, live: string | null, malformed: Array<MalformedItem>) => {
  let oldest: KindItem<"score"> | undefined
  for (const row of sql.pastScoreEvents.iterate({ place, live })) {
    if (oldest !== undefined && Number(row["first_id"]) > oldest.id) break
    const eventKey = row["event_key"]
    if (typeof eventKey !== "string") continue
    oldest = older(oldest, firstScore(sql.scoresOfEvent.iterate({ place, eventKey }), malformed))
  }
  return oldest
}

/**
 * The heads of the place's score lanes (see ScoreHeads), and the malformed rows passed over on the
 * way. Only the `lanes` asked for are read (the others' heads are none): the scheduler asks for
 * the lanes it could start an entry in, at every wake, and each head read decodes a row.
 */
export const scoreHeadsOf = (sql: OutboxStatements, place: string, live: LiveEvent, lanes: ReadonlyArray<ScoreLane> = ["live", "past"]) => {
  const malformed: Array<MalformedItem> = []
  const liveEventKey = live === undefined ? newestScoreEvent(sql, place) : live.eventKey
  // The live lane is two ranges of the index: the null key's and the live event's.
  const liveKeys = !lanes.includes("live") ? [] : liveEventKey === null ? [null] : [null, liveEventKey]
  let first: KindItem<"score"> | undefined
  let last: KindItem<"score"> | undefined
  for (const eventKey of liveKeys) {
    first = older(first, firstScore(sql.scoresOfEvent.iterate({ place, eventKey }), malformed))
    last = newer(last, firstScore(sql.scoresOfEventNewest.iterate({ place, eventKey }), malformed))
  }
  const heads: ScoreHeads = {
    latest: Option.fromUndefinedOr(last),
    oldestLive: Option.fromUndefinedOr(first),
    oldestPast: Option.fromUndefinedOr(lanes.includes("past") ? oldestPast(sql, place, liveEventKey, malformed) : undefined),
    liveEventKey
  }
  return { heads, malformed }
}
