import { Effect, Schema } from "effect"
import { compileNamedPattern, type LinePattern } from "../shared/named-pattern.ts"

export const defaultPattern = "^BTN (?<button>\\w+) (?<gesture>\\w+)(?: (?<counter>\\d+))?$"

/**
 * `gesture` is required; `button` defaults to "1"; `counter` (the device's
 * press counter) drops repeats; `ms` (device uptime) may be matched but is
 * not used, as the uptime cannot be put on the wall clock.
 */
const groupNames = ["button", "gesture", "counter", "ms"] as const

export interface CompiledPattern {
  readonly pattern: LinePattern
}

/** Compiles a configured pattern, or says what is wrong with it. */
export const compilePattern = (source: string): CompiledPattern | string => {
  const compiled = compileNamedPattern(source, groupNames)
  if (typeof compiled === "string") return compiled
  if (!compiled.groups.includes("gesture")) return "pattern needs a named group `gesture`"
  return { pattern: compiled.pattern }
}

const Pattern = Schema.String.check(Schema.makeFilter((source: string) => {
  const compiled = compilePattern(source)
  return typeof compiled === "string" ? compiled : undefined
}))

export const optionsSchema = Schema.Struct({
  pattern: Pattern.annotate({ description: "Regular expression with named groups gesture, and optionally button, counter, ms." })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(defaultPattern))),
  maxLineBytes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 16, maximum: 65_536 })))
})

export type SerialButtonsOptions = typeof optionsSchema.Type
