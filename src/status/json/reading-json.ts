import { Schema } from "effect"

/**
 * A scoreboard's reading (src/domain/reading.ts) and a timing console's race board
 * (src/domain/race.ts) as `/status.json` carries them on a place's card. The domain keeps its
 * interfaces; src/status/status-snapshot.ts checks at compile time that these are the same types.
 * Optional fields may be undefined: the encoder drops them, as JSON.stringify does.
 */

const GamePoint = Schema.Union([Schema.Literals(["0", "15", "30", "40", "AD"]), Schema.Number])
const Pair = Schema.Tuple([Schema.Number, Schema.Number])

const Penalty = Schema.Struct({
  player: Schema.optional(Schema.Number),
  remaining: Schema.String
})

export const LaneBoardJson = Schema.Struct({
  lane: Schema.Number,
  state: Schema.Literals(["running", "stopped", "blank"]),
  place: Schema.optional(Schema.Number),
  time: Schema.optional(Schema.String),
  timeMs: Schema.optional(Schema.Number)
})

export const RaceBoardJson = Schema.Struct({
  clockMs: Schema.optional(Schema.Number),
  clockReset: Schema.Boolean,
  event: Schema.optional(Schema.Number),
  heat: Schema.optional(Schema.Number),
  lanes: Schema.Array(LaneBoardJson),
  blanked: Schema.optional(Schema.Boolean)
})

export const ReadingJson = Schema.Struct({
  receivedAt: Schema.Number,
  home: Schema.optional(Schema.Number),
  away: Schema.optional(Schema.Number),
  period: Schema.optional(Schema.Number),
  sets: Schema.optional(Schema.Array(Pair)),
  setsWon: Schema.optional(Pair),
  gamePoints: Schema.optional(Schema.Tuple([GamePoint, GamePoint])),
  tieBreak: Schema.optional(Schema.Boolean),
  serve: Schema.optional(Schema.Literals(["home", "away"])),
  clock: Schema.optional(Schema.String),
  penalties: Schema.optional(Schema.Struct({ home: Schema.Array(Penalty), away: Schema.Array(Penalty) })),
  teamFouls: Schema.optional(Pair),
  timeouts: Schema.optional(Pair),
  race: Schema.optional(RaceBoardJson),
  shown: Schema.optional(Schema.Array(Schema.Struct({ label: Schema.String, text: Schema.String })))
})
