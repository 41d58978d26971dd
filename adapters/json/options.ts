import { Schema } from "effect"
import { type FieldName, fieldNames, fieldSetProblem } from "../shared/reading-fields.ts"

/** A dot path into the document; numeric segments index arrays: `score.sets.0.home`. */
const Path = Schema.String.check(Schema.makeFilter((path: string) =>
  path.split(".").every((segment) => segment.length > 0) ? undefined : "a path is dot-separated names, none empty"
))

const Fields = Schema.Struct({
  home: Schema.optional(Path),
  away: Schema.optional(Path),
  period: Schema.optional(Path),
  homePoints: Schema.optional(Path),
  awayPoints: Schema.optional(Path),
  /** An array of `[h, a]` pairs or `{ home, away }` objects, or a string like `6-4 3-6`. */
  sets: Schema.optional(Path),
  homeSetsWon: Schema.optional(Path),
  awaySetsWon: Schema.optional(Path),
  serve: Schema.optional(Path),
  clock: Schema.optional(Path)
}).check(Schema.makeFilter((fields) => {
  const problem = fieldSetProblem(configuredFields(fields).map(([name]) => name))
  return problem === undefined ? undefined : `fields: ${problem}`
}))

/**
 * `framing`: "lines" for newline-delimited JSON on a serial line (default),
 * "message" when each `push` is one whole document (an MQTT payload).
 */
export const optionsSchema = Schema.Struct({
  framing: Schema.optional(Schema.Literals(["lines", "message"])),
  fields: Fields
})

export type JsonOptions = typeof optionsSchema.Type

/** The configured fields and their paths. */
export const configuredFields = (fields: { readonly [K in FieldName]?: string | undefined }): Array<[FieldName, string]> =>
  fieldNames.flatMap((name) => {
    const path = fields[name]
    return path === undefined ? [] : [[name, path] as [FieldName, string]]
  })
