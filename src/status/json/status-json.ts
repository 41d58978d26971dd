import { Schema } from "effect"
import { PlaceStatusJson } from "./place-json.ts"

/**
 * `/status.json`: the one Schema the status server encodes the snapshot with and the readers of
 * the running bridge (`scorebridge upgrade-window`, the upgrade guard, the setup page) pick their
 * fields from. The snapshot's types are derived from it (src/status/status-snapshot.ts), so the
 * model, the page's JSON and its readers cannot drift apart.
 *
 * It lives in a folder of its own that imports only Effect, the domain and the outbox's payload
 * Schemas: src/upgrade sits below src/status (which reads upgrade's rollback record), and may
 * import this folder without a circle. Readers decode with the default for unknown keys (ignored),
 * so a newer bridge's extra fields pass; each reader picks only the fields it needs, so an older
 * bridge's missing ones it does not read pass too.
 */

/** The zone the page shows times in (the timeline's too): the venue's, not the viewer's. */
export const VenueClockJson = Schema.Struct({
  /** IANA name, e.g. Europe/Paris. */
  timeZone: Schema.String,
  /** The zone's offset from UTC at the snapshot: what a browser that does not know the zone falls back to. */
  utcOffsetMinutes: Schema.Number
})

export const LinkStatusJson = Schema.Struct({
  /** scoreboard:<place>, button:<source> or mqtt. */
  name: Schema.String,
  up: Schema.Boolean,
  state: Schema.String,
  target: Schema.String,
  detail: Schema.NullOr(Schema.String),
  since: Schema.Number,
  connects: Schema.Int
})

export const TokenStatusJson = Schema.Struct({
  sentLastMinute: Schema.Int,
  limitPerMinute: Schema.Int,
  waiting: Schema.Struct({ click: Schema.Int, score: Schema.Int, backlog: Schema.Int }),
  backoffUntil: Schema.NullOr(Schema.Number),
  suspended: Schema.NullOr(Schema.String)
})

/** The outbox's fsyncs and slow commits since it opened (src/delivery/slow-disk.ts OutboxDiskStats). */
export const OutboxDiskJson = Schema.Struct({
  fsyncs: Schema.Int,
  fsyncSeconds: Schema.Number,
  slowFsyncs: Schema.Int,
  slowCommits: Schema.Int
})

/** An automatic rollback as the page shows it (src/status/rollback-notice.ts). */
export const RollbackNoticeJson = Schema.Struct({
  /** When the guard gave up on the new version. */
  at: Schema.Number,
  /** The upgrade that was rolled back: from the kept version to the failed one. */
  from: Schema.String,
  to: Schema.String,
  reason: Schema.String,
  reasonKind: Schema.String,
  reinstalled: Schema.Boolean,
  held: Schema.Boolean,
  error: Schema.NullOr(Schema.String),
  /** In words, with what to do: the page's banner and the start-up log line. */
  text: Schema.String
})

export const StatusJson = Schema.Struct({
  generatedAt: Schema.Number,
  startedAt: Schema.Number,
  venueClock: VenueClockJson,
  healthy: Schema.Boolean,
  /** One line per problem, each naming its place or link; empty when healthy. */
  reasons: Schema.Array(Schema.String),
  places: Schema.Array(PlaceStatusJson),
  token: TokenStatusJson,
  links: Schema.Array(LinkStatusJson),
  /** Service clock minus ours, from the last answer's Date header (±1 s resolution). */
  clockSkewMs: Schema.NullOr(Schema.Number),
  /** Running totals, for /metrics. */
  outboxDisk: OutboxDiskJson,
  thresholds: Schema.Struct({ noDataAfterMs: Schema.Number, stuckAfterMs: Schema.Number }),
  /** Per place, a tag that changes whenever its timeline can: the page re-requests the picture only then. */
  timelines: Schema.Record(Schema.String, Schema.String),
  /** The upgrade guard went back to the previous version (its record in the package's directory); null: no record. */
  rollback: Schema.NullOr(RollbackNoticeJson)
})

type Snapshot = typeof StatusJson.Type

/**
 * A reader's Schema of /status.json, made of fields picked from these (`mapFields(Struct.pick(…))`),
 * never copies. Typed so that every snapshot is a value it reads: a field it needs that the snapshot
 * renames, drops or retypes fails the typecheck of the reader.
 */
export const statusReader = <S extends Schema.Top>(
  schema: S & ([Snapshot] extends [S["Type"]] ? unknown : { readonly "a snapshot is not what this reader reads": never })
): S => schema
