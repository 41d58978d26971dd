import { Schema } from "effect"

/** The `options` block of a Daktronics scoreboard in the place config. */
export const DaktronicsOptions = Schema.Struct({
  /** Where tennis game points live; only the score fields (107/111) are known so far. */
  tennisPoints: Schema.optionalKey(Schema.Literal("score")),
  /** Volleyball live points: score fields 107/111 ("score", default) or current-game fields 239/259 ("game"). */
  volleyballPoints: Schema.optionalKey(Schema.Literals(["score", "game"]))
})

export type DaktronicsOptions = typeof DaktronicsOptions.Type
