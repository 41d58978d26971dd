import type { Reading } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { type FieldName, readingFromFields } from "../shared/reading-fields.ts"
import { compilePattern, type LinesOptions, skipColumn } from "./options.ts"

/** Turns one line into a Reading; throws `MalformedFrame` when the line does not fit the configuration. */
export type LineReader = (line: string, receivedAt: number) => Reading

export const makeLineReader = (options: LinesOptions): LineReader =>
  options.pattern !== undefined ? patternReader(options.pattern) : columnReader(options.delimiter ?? " ", options.fields ?? [])

const patternReader = (source: string): LineReader => {
  const compiled = compilePattern(source)
  if (typeof compiled === "string") throw new Error(compiled)
  const { fields, pattern } = compiled
  const configured = new Set(fields)
  return (line, receivedAt) => {
    const groups = pattern.groups(line)
    if (groups === undefined) throw new MalformedFrame("line does not match the pattern")
    return readingFromFields(configured, (field) => groups[field], receivedAt)
  }
}

const whitespace = /\s+/

const columnReader = (delimiter: string, columns: ReadonlyArray<string>): LineReader => {
  const index = new Map<FieldName, number>()
  columns.forEach((name, i) => {
    if (name !== skipColumn) index.set(name as FieldName, i)
  })
  const configured = new Set(index.keys())
  // A space delimiter means "aligned columns": any run of blanks separates them.
  const split = delimiter === " " ? (line: string) => line.trim().split(whitespace) : (line: string) => line.split(delimiter)
  return (line, receivedAt) => {
    const values = split(line)
    if (values.length < columns.length) throw new MalformedFrame(`expected ${columns.length} columns, got ${values.length}`)
    return readingFromFields(configured, (field) => values[index.get(field)!], receivedAt)
  }
}
