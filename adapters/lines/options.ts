import { Schema } from "effect"
import { compileNamedPattern, type LinePattern } from "../shared/named-pattern.ts"
import { type FieldName, fieldNames, fieldSetProblem, isFieldName } from "../shared/reading-fields.ts"

/** A column to ignore in `fields`. */
export const skipColumn = "_"

export interface CompiledPattern {
  readonly pattern: LinePattern
  readonly fields: ReadonlyArray<FieldName>
}

/** Compiles a configured pattern, or says what is wrong with it. */
export const compilePattern = (source: string): CompiledPattern | string => {
  const compiled = compileNamedPattern(source, fieldNames)
  if (typeof compiled === "string") return compiled
  const { pattern, groups } = compiled
  if (groups.length === 0) return `pattern has no named group among ${fieldNames.join(", ")}`
  const fields = groups.filter(isFieldName)
  const problem = fieldSetProblem(fields)
  return problem === undefined ? { pattern, fields } : `pattern: ${problem}`
}

const Pattern = Schema.String.check(Schema.makeFilter((source: string) => {
  const compiled = compilePattern(source)
  return typeof compiled === "string" ? compiled : undefined
}))

const Column = Schema.Literals([...fieldNames, skipColumn])

/**
 * Either `pattern` (named groups are the fields) or `delimiter` + `fields`
 * (column names in order, `_` to skip a column).
 */
export const optionsSchema = Schema.Struct({
  pattern: Schema.optional(Pattern),
  delimiter: Schema.optional(Schema.NonEmptyString),
  fields: Schema.optional(Schema.Array(Column))
}).check(Schema.makeFilter((options) => {
  if (options.pattern !== undefined) {
    return options.delimiter === undefined && options.fields === undefined
      ? undefined
      : "give either pattern, or delimiter and fields, not both"
  }
  if (options.delimiter === undefined || options.fields === undefined) return "give either pattern, or delimiter and fields"
  const named = options.fields.filter(isFieldName)
  if (new Set(named).size !== named.length) return "fields: a field is named twice"
  const problem = fieldSetProblem(named)
  return problem === undefined ? undefined : `fields: ${problem}`
}))

export type LinesOptions = typeof optionsSchema.Type
