import { Result, Schema, type SchemaIssue } from "effect"
import type { Gesture } from "../domain/button.ts"
import type * as Domain from "../domain/score-entry.ts"
import type * as Race from "../domain/race.ts"
import { Player } from "../service/schemas.ts"
import type { ItemKind } from "../domain/item-kinds.ts"

/**
 * One Schema per outbox item kind: what a score entry, a click and an undo hold. Checked when an
 * item is written and when its row is read (outbox-item.ts), so everyone past the outbox reads
 * typed fields, and the compiler catches a changed body.
 *
 * Checked, never rebuilt: a payload is the body as the service takes it, and a field this bridge
 * does not know (written by a newer one, see the rule in outbox-schema.ts) goes to the service as
 * it is. The Schemas hold no transformations, so the value that passes is the value stored.
 */

const Pair = Schema.Tuple([Schema.Finite, Schema.Finite])
const TennisEntry = Schema.Struct({
  timeStamp: Schema.Finite,
  left: Schema.Finite,
  right: Schema.Finite,
  period: Schema.Finite,
  scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair), pointScore: Pair })
})
const VolleyballEntry = Schema.Struct({
  timeStamp: Schema.Finite,
  scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair) })
})
const GenericEntry = Schema.Struct({
  timeStamp: Schema.Finite,
  left: Schema.Finite,
  right: Schema.Finite,
  period: Schema.Finite
})

/** A score entry (src/domain/score-entry.ts), as the service's "Score entry" section defines it. */
export const ScoreEntry = Schema.Union([TennisEntry, GenericEntry, VolleyballEntry])

const gestures = ["single", "double", "triple", "hold", "release"] as const satisfies ReadonlyArray<Gesture>
export const teams = ["home", "away", "none"] as const
export type Team = (typeof teams)[number]

/** A swimmer's finish as a `finish` click carries it (src/domain/race.ts FinishFacts): the time as the board shows it. */
export const FinishFacts = Schema.Struct({
  lane: Schema.Int,
  place: Schema.Int,
  time: Schema.String,
  event: Schema.optionalKey(Schema.Int),
  heat: Schema.optionalKey(Schema.Int),
  swimmer: Schema.optionalKey(Schema.String)
})

/**
 * What the bridge says of a click in its metadata (at most 500 bytes at the service): `clickId`
 * finds it again in the event's moments (reconcile.ts); a press names its button, an
 * auto-highlight (`source: "auto"`) its rule, a finish click (`rule: "finish"`) the swimmer's finish.
 */
export const ClickMetadata = Schema.Struct({
  clickId: Schema.String,
  team: Schema.Literals(teams),
  /** The button source's name, or "auto" for an auto-highlight (see src/domain/click-origin.ts). */
  source: Schema.String,
  button: Schema.optionalKey(Schema.String),
  gesture: Schema.optionalKey(Schema.Literals(gestures)),
  /** A late press (src/clicks/late-press.ts): the bridge listened again after this (ms), null when unknown. */
  pressedAfter: Schema.optionalKey(Schema.NullOr(Schema.Finite)),
  /** An auto-highlight's rule, and every rule that chose the same change when several did. */
  rule: Schema.optionalKey(Schema.String),
  rules: Schema.optionalKey(Schema.Array(Schema.String)),
  /** A `finish` click's lane, place and time (and event, heat, swimmer when known). */
  finish: Schema.optionalKey(FinishFacts)
})
export type ClickMetadata = typeof ClickMetadata.Type

const Position = Schema.Struct({
  horizontal: Schema.optionalKey(Schema.Literals(["left", "center", "right"])),
  vertical: Schema.optionalKey(Schema.Literals(["top", "center", "bottom"]))
})

/** An overlay of a click body (the service's Overlay); times in ms relative to the clip's start. */
export const Overlay = Schema.Struct({
  imageSource: Schema.optionalKey(Schema.String),
  templateSource: Schema.optionalKey(Schema.String),
  values: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  position: Schema.optionalKey(Position),
  heightPercentOfHeight: Schema.optionalKey(Schema.Finite),
  widthPercentOfWidth: Schema.optionalKey(Schema.Finite),
  marginPercentOfHeight: Schema.optionalKey(Schema.Finite),
  marginPercentOfWidth: Schema.optionalKey(Schema.Finite),
  startTime: Schema.optionalKey(Schema.Finite),
  duration: Schema.optionalKey(Schema.Finite)
})

/** The service's click body as the bridge makes it (src/clicks/click-body.ts, src/highlights/auto-click.ts). */
export const ClickBody = Schema.Struct({
  /** The button edge (or the score change) time, ms. */
  timeStamp: Schema.Finite,
  startTime: Schema.optionalKey(Schema.Finite),
  endTime: Schema.optionalKey(Schema.Finite),
  score: Schema.optionalKey(ScoreEntry),
  overlays: Schema.optionalKey(Schema.Array(Overlay)),
  players: Schema.optionalKey(Schema.Array(Player)),
  metadata: ClickMetadata
})
export type ClickBody = typeof ClickBody.Type

/** An undo names the click it takes back; the moment to delete is that click's result. */
export const UndoPayload = Schema.Struct({ clickItemId: Schema.Int })
export type UndoPayload = typeof UndoPayload.Type

export const payloadSchemas = { score: ScoreEntry, click: ClickBody, undo: UndoPayload } as const

/** What an item of kind `K` holds. */
export type PayloadOf<K extends ItemKind> = (typeof payloadSchemas)[K]["Type"]

// The domain's score entry and the Schema's are one type: an edit to either that breaks that fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const scoreEntrySame: Same<typeof ScoreEntry.Type, Domain.ScoreEntry> = true
void scoreEntrySame
const finishFactsSame: Same<typeof FinishFacts.Type, Race.FinishFacts> = true
void finishFactsSame

/**
 * Checks a value against a kind's Schema and gives it back typed, as it is (unknown fields kept).
 * The guard answers the common case without building anything; only a value that fails is decoded,
 * for the issue that says why.
 */
const checker = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const is = Schema.is(schema)
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (value: unknown): Result.Result<S["Type"], SchemaIssue.Issue> =>
    is(value) ? Result.succeed(value) : Result.mapError(decode(value), (error) => error.issue)
}

export const checkScoreEntry = checker(ScoreEntry)
export const checkClickBody = checker(ClickBody)
export const checkUndo = checker(UndoPayload)
