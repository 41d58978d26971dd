import { Schema } from "effect"
import { codeText, type FieldRange, FieldRangeError, FieldRangeText, formatFieldRange, parseFieldRange, widthOf } from "../shared/field-ranges.ts"
import { frameLength } from "./framing.ts"
import { type Digits, type Layout, type LayoutName, layoutNameOf, layouts } from "./layouts.ts"
import { codeTable, defaultSportCodes, SportCodes } from "./sport-codes.ts"

/**
 * Fields a console generation may put elsewhere: `"<type> <first>-<last>"`, the
 * type being the frame's sport code (`0x35`), bytes counted from the 0xF8 (= 0),
 * inclusive (`"0x35 14"` is one byte). An override replaces that field's place
 * in frames of that code only; the rest of the layout stays.
 */
export const fieldWidths = {
  home: { min: 1, max: 3, what: "1 to 3 digits" },
  away: { min: 1, max: 3, what: "1 to 3 digits" },
  period: { min: 1, max: 2, what: "1 or 2 digits" },
  clock: { min: 4, max: 4, what: "4 bytes (MMSS or SSt )" }
} as const

export type FieldName = keyof typeof fieldWidths

const fieldNames = Object.keys(fieldWidths) as ReadonlyArray<FieldName>

const Fields = Schema.Struct({
  home: Schema.optionalKey(FieldRangeText.annotate({ description: "Home score, 1–3 digits (tennis: its game points), e.g. \"0x35 9-10\"." })),
  away: Schema.optionalKey(FieldRangeText.annotate({ description: "Away score, 1–3 digits (tennis: its game points), e.g. \"0x35 12-13\"." })),
  period: Schema.optionalKey(FieldRangeText.annotate({ description: "Period or current set, 1 or 2 digits, e.g. \"0x35 14\"." })),
  clock: Schema.optionalKey(FieldRangeText.annotate({ description: "Match clock, 4 bytes (MMSS, or SSt and a blank), e.g. \"0x35 4-7\"." }))
})

interface Override {
  readonly code: number
  readonly field: FieldName
  readonly range: Digits
}

interface Problem {
  readonly path: ReadonlyArray<string>
  readonly issue: string
}

const rangeText = (code: number, { at, width }: Digits) => formatFieldRange({ type: codeText(code), first: at, last: at + width - 1 })

/** Each configured field as a code and a byte range, or the first problem, naming the option. */
const overridesOf = (fields: Partial<Record<FieldName, string>>, table: ReadonlyArray<LayoutName | undefined>): Array<Override> | Problem => {
  const overrides: Array<Override> = []
  for (const field of fieldNames) {
    const text = fields[field]
    if (text === undefined) continue
    const path = ["fields", field]
    let parsed: FieldRange
    try {
      parsed = parseFieldRange(text)
    } catch (error) {
      if (!(error instanceof FieldRangeError)) throw error
      return { path, issue: `fields.${field}: ${error.message}` }
    }
    if (!/^0x/i.test(parsed.type)) {
      return { path, issue: `fields.${field}: "${parsed.type}" is not a sport code: a Stramatel frame's type is its byte 1 in 0x-hex, like "0x35 9-10"` }
    }
    const code = parsed.typeByte
    if (table[code] === undefined) {
      const known = Object.keys(defaultSportCodes).join(", ")
      return { path, issue: `fields.${field}: no layout reads frames of code ${codeText(code)} (codes: ${known}, or one added in sportCodes)` }
    }
    const { first, last } = parsed
    if (first < 2 || last > frameLength - 2) {
      const bytes = first === last ? `byte ${first} is` : `bytes ${first}-${last} are`
      return { path, issue: `fields.${field}: ${bytes} not inside a frame's data: bytes 2 to ${frameLength - 2} (0 is 0xF8, 1 the sport code, ${frameLength - 1} the 0x0D)` }
    }
    const { max, min, what } = fieldWidths[field]
    const width = widthOf(parsed)
    if (width < min || width > max) return { path, issue: `fields.${field}: ${field} is ${what}, not ${width}` }
    overrides.push({ code, field, range: { at: first, width } })
  }
  return overrides
}

const withOverride = (layout: Layout, { field, range }: Override): Layout => {
  switch (field) {
    case "period":
      return { ...layout, period: range }
    case "clock":
      return { ...layout, clock: range.at }
    case "home":
    case "away": {
      if (layout.gamePoints !== undefined) return { ...layout, gamePoints: { ...layout.gamePoints, [field]: range } }
      const score = { ...layout.score!, [field]: range }
      // Volleyball shows the set in play as its live points: they move together.
      return { ...layout, score, ...(layout.currentSet === layout.score ? { currentSet: score } : {}) }
    }
  }
}

/** The four fields `fields` may move, where a layout has them. */
const placed = (layout: Layout): ReadonlyArray<readonly [FieldName, Digits]> => {
  const points = layout.score ?? layout.gamePoints
  return [
    ...(points === undefined ? [] : [["home", points.home], ["away", points.away]] as const),
    ...(layout.period === undefined ? [] : [["period", layout.period]] as const),
    ...(layout.clock === undefined ? [] : [["clock", { at: layout.clock, width: 4 }]] as const)
  ]
}

const overlaps = (a: Digits, b: Digits) => a.at < b.at + b.width && b.at < a.at + a.width

/** A moved field that shares a byte with another field of the same code's layout, moved or not. */
const overlapProblem = (code: number, layout: Layout, moved: ReadonlyArray<Override>): Problem | undefined => {
  const fields = placed(layout)
  for (const { field } of moved) {
    const [, range] = fields.find(([name]) => name === field)!
    const other = fields.find(([name, at]) => name !== field && overlaps(range, at))
    if (other === undefined) continue
    const note = moved.some((o) => o.field === other[0]) ? "" : " (its default place: move it too)"
    return { path: ["fields", field], issue: `fields.${field}: ${rangeText(code, range)} overlaps ${other[0]} at ${rangeText(code, other[1])}${note}` }
  }
  return undefined
}

export interface CodeLayout {
  readonly name: LayoutName
  readonly layout: Layout
}

type Resolved = { readonly byCode: ReadonlyArray<CodeLayout | undefined> } | { readonly problem: Problem }

/** The layout for each code byte with `fields` applied, or the first problem with them. */
const resolve = (options: {
  readonly sportCodes?: Readonly<Record<string, string>> | undefined
  readonly fields?: Partial<Record<FieldName, string>> | undefined
}): Resolved => {
  const table = codeTable(options.sportCodes)
  const overrides = overridesOf(options.fields ?? {}, table)
  if (!Array.isArray(overrides)) return { problem: overrides }
  const byCode: Array<CodeLayout | undefined> = []
  for (const [code, name] of table.entries()) {
    if (name === undefined) {
      byCode.push(undefined)
      continue
    }
    const moved = overrides.filter((o) => o.code === code)
    const layout = moved.reduce(withOverride, layouts[name])
    const problem = overlapProblem(code, layout, moved)
    if (problem !== undefined) return { problem }
    byCode.push({ name, layout })
  }
  return { byCode }
}

export const optionsSchema = Schema.Struct({
  /** Code (`0x46`) → a sport whose layout reads its frames, merged over `defaultSportCodes`. */
  sportCodes: Schema.optional(SportCodes),
  fields: Schema.optional(Fields)
}).check(Schema.makeFilter((options) => {
  const resolved = resolve(options)
  return "problem" in resolved ? resolved.problem : undefined
}))

export type StramatelOptions = typeof optionsSchema.Type

/**
 * `fields` entries in frames of a code the place's sport does not read: the decoder skips those
 * frames at that place, so the entry would silently do nothing (a mistyped code, or the layout of
 * another sport). A sport no layout reads is the config's to say (not a protocol sport).
 */
export const unreadFields = (options: StramatelOptions, sport: string): ReadonlyArray<Problem> => {
  const place = layoutNameOf(sport)
  if (place === undefined) return []
  const table = codeTable(options.sportCodes)
  const read = table.flatMap((name, code) => (name === place ? [codeText(code)] : []))
  return fieldNames.flatMap((field) => {
    const text = options.fields?.[field]
    if (text === undefined) return []
    const { typeByte } = parseFieldRange(text)
    if (table[typeByte] === place) return []
    return [{
      path: ["fields", field],
      issue: `${JSON.stringify(text)} is in frames of code ${codeText(typeByte)} (the ${table[typeByte]} layout), which a ${sport} place does not read: `
        + `its frames are code ${read.join(" or ")}; move the field there, or check the place's sport`
    }]
  })
}

/** The layout each code byte's frames are read with (undefined: not a sport frame). */
export const layoutsByCode = (options: StramatelOptions): ReadonlyArray<CodeLayout | undefined> => {
  const resolved = resolve(options)
  // The config loader rejects these with the option named; this only guards direct callers.
  if ("problem" in resolved) throw new RangeError(`stramatel-452m options.${resolved.problem.issue}`)
  return resolved.byCode
}
