import { Option, Schema } from "effect"

/**
 * The parts of outbox payloads and results the timeline reads. The outbox holds JSON written by
 * other versions of the bridge too: an item that does not fit is left out of the picture
 * rather than breaking it.
 */

const Pair = Schema.Tuple([Schema.Finite, Schema.Finite])

const TennisScore = Schema.Struct({
  timeStamp: Schema.Finite,
  scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair), pointScore: Pair })
})
const SetScore = Schema.Struct({
  timeStamp: Schema.Finite,
  scoreValue: Schema.Struct({ gameScores: Schema.Array(Pair) })
})
const GenericScore = Schema.Struct({
  timeStamp: Schema.Finite,
  left: Schema.Finite,
  right: Schema.Finite,
  period: Schema.Finite
})

export type TennisScore = typeof TennisScore.Type
export type SetScore = typeof SetScore.Type
export type GenericScore = typeof GenericScore.Type

export const asTennisScore = Schema.decodeUnknownOption(TennisScore)
export const asSetScore = Schema.decodeUnknownOption(SetScore)
export const asGenericScore = Schema.decodeUnknownOption(GenericScore)

const ClickPayload = Schema.Struct({
  timeStamp: Schema.Finite,
  metadata: Schema.optionalKey(Schema.Struct({
    team: Schema.optionalKey(Schema.Unknown),
    source: Schema.optionalKey(Schema.Unknown),
    rule: Schema.optionalKey(Schema.Unknown),
    rules: Schema.optionalKey(Schema.Unknown)
  }))
})
export type ClickPayload = typeof ClickPayload.Type
export const asClickPayload = Schema.decodeUnknownOption(ClickPayload)

const UndoPayload = Schema.Struct({ clickItemId: Schema.Finite })
export const undoneClickId = (payload: unknown): number | undefined =>
  Option.getOrUndefined(Schema.decodeUnknownOption(UndoPayload)(payload))?.clickItemId

const ClickResult = Schema.Struct({
  mergedInto: Schema.optionalKey(Schema.Finite),
  skipped: Schema.optionalKey(Schema.Boolean)
})
export const asClickResult = (result: unknown) =>
  Option.getOrElse(Schema.decodeUnknownOption(ClickResult)(result), () => ({}) as typeof ClickResult.Type)
