import { Schema } from "effect"
import { decodeOr400 } from "./failure.ts"

/** Every epoch-ms value since 1973 is above this; a seconds value is far below it. */
const secondsBelow = 1e11

export const TimeStampMs = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(secondsBelow, { message: "timeStamp looks like seconds; send milliseconds since the epoch" })
)

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
/** Tennis points 1..4 stand for 15/30/40/AD; larger values are tie-break counts, so no upper bound. */
const Pair = Schema.Tuple([Count, Count])

/** `key` is assigned by the service; sending one is a client bug worth a loud 400. */
const reservedKey = Schema.makeFilter<{ readonly key?: unknown }>((entry) =>
  entry.key === undefined ? undefined : { path: ["key"], issue: "key is reserved; the service assigns it" }
)

const generic = {
  timeStamp: TimeStampMs,
  key: Schema.optional(Schema.Unknown),
  left: Schema.optional(Schema.Int),
  right: Schema.optional(Schema.Int),
  period: Schema.optional(Schema.Int)
}

const scoreSchemas: Readonly<Record<string, Schema.ConstraintDecoder<unknown>>> = {
  tennis: Schema.Struct({
    ...generic,
    left: Schema.Int,
    right: Schema.Int,
    period: Schema.Int,
    scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair), pointScore: Pair })
  }).check(reservedKey),
  volleyball: Schema.Struct({ ...generic, scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair) }) }).check(reservedKey)
}

const genericSchema = Schema.Struct(generic).check(reservedKey)

export type ScoreFields = Readonly<Record<string, unknown>> & { readonly timeStamp: number }

/**
 * Checks a score entry by the rules of `sport` and returns it as sent (unknown
 * fields included: the service stores them as is). Throws the 400 answer.
 */
export function validateScoreEntry(sport: string, body: unknown, prefix = ""): ScoreFields {
  decodeOr400(scoreSchemas[sport] ?? genericSchema, body, prefix)
  return body as ScoreFields
}
