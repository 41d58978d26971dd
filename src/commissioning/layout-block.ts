import { common, volleyball } from "../../adapters/daktronics-rtd/layout.ts"
import { formatFieldRange } from "../../adapters/shared/field-ranges.ts"
import { defaultSportCodes } from "../../adapters/stramatel-452m/sport-codes.ts"
import type { Candidate, Finding } from "./layout-finder.ts"
import type { LearnableProtocol } from "./layout-frames.ts"
import { fieldWord, type ObservedField } from "./layout-observation.ts"

type Found = Extract<Finding, { readonly _tag: "found" }>

/** `H 12-14`, `0x35 9-10`, `C 7`: a range as the Fair-Play and Stramatel `fields` options write it. */
export const fieldRangeText = (c: Candidate): string => formatFieldRange({ type: c.kind, first: c.first, last: c.last })

const span = (c: Candidate) => (c.first === c.last ? `${c.first}` : `${c.first}-${c.last}`)

/** A range in the protocol's words: the option text, buffer offsets, or character columns. */
export const describeRange = (protocol: LearnableProtocol, c: Candidate): string => {
  switch (protocol) {
    case "fairplay-mp70":
    case "stramatel-452m":
      return fieldRangeText(c)
    case "daktronics-rtd":
      return `${c.first === c.last ? "offset" : "offsets"} ${span(c)}`
    case "lines":
      return `${c.first === c.last ? "column" : "columns"} ${span(c)}`
  }
}

/** One way to write the block: its options (for the adapter's own check), its lines, and a sport to decode with. */
export interface BlockChoice {
  readonly options: Readonly<Record<string, unknown>>
  /** Indented as under a place's `scoreboard:`. */
  readonly lines: ReadonlyArray<string>
  readonly sport: string
}

/** The options block, as choices in order of preference (the first the adapter reads the recording with wins); or why there is none. */
export type Block =
  | { readonly _tag: "block"; readonly choices: ReadonlyArray<BlockChoice>; readonly notes: ReadonlyArray<string> }
  | { readonly _tag: "none"; readonly why: ReadonlyArray<string> }

const indent = "      "

/** Stramatel: a sport whose layout reads frames of this code by default, to decode with. */
const sportOfCode = (code: string): string =>
  Object.entries(defaultSportCodes).find(([key]) => Number(key) === Number(code))?.[1] ?? "handball"

/**
 * `fields: { home: "H 12-14", away: "H 38-40", period: "C 7", clock: "C 2-5" }`. Fair-Play has two
 * packet variants with different lengths and penalty slots: the rink one (default) first, then ProLine.
 */
const fieldsBlock = (protocol: "fairplay-mp70" | "stramatel-452m", found: ReadonlyArray<Found>): Block => {
  const fields = Object.fromEntries(found.map((f) => [f.field, fieldRangeText(f.block)]))
  const fieldsLine = `${indent}  fields: { ${found.map((f) => `${f.field}: "${fieldRangeText(f.block)}"`).join(", ")} }`
  const head = [`${indent}protocol: ${protocol}`, `${indent}options:`]
  if (protocol === "stramatel-452m") {
    const score = found.find((f) => f.field === "home" || f.field === "away") ?? found[0]!
    return { _tag: "block", choices: [{ options: { fields }, lines: [...head, fieldsLine], sport: sportOfCode(score.block.kind) }], notes: [] }
  }
  return {
    _tag: "block",
    choices: [
      { options: { fields }, lines: [...head, fieldsLine], sport: "hockey" },
      { options: { variant: "proline", fields }, lines: [...head, `${indent}  variant: proline`, fieldsLine], sport: "hockey" }
    ],
    notes: []
  }
}

const groupOf = (field: ObservedField, letters: boolean, width: number) => {
  const chars = field === "clock" ? " \\d:." : letters ? " \\dA-Za-z" : " \\d"
  return `(?<${field}>[${chars}]{${width}})`
}

/**
 * A `pattern` for the lines protocol reading each field at its columns: `^.{12}(?<home>[ \d]{3})…`.
 * Fixed columns, blanks allowed around the digits (the lines adapter trims them).
 */
export const linesPattern = (found: ReadonlyArray<Found>, letterPeriod: boolean): string => {
  let pattern = "^"
  let column = 0
  for (const f of [...found].sort((a, b) => a.block.first - b.block.first)) {
    const gap = f.block.first - column
    if (gap > 0) pattern += `.{${gap}}`
    pattern += groupOf(f.field, f.field === "period" && letterPeriod, f.block.last - f.block.first + 1)
    column = f.block.last + 1
  }
  return pattern
}

const linesBlock = (found: ReadonlyArray<Found>, letterPeriod: boolean): Block => {
  const has = (field: ObservedField) => found.some((f) => f.field === field)
  if (has("home") !== has("away")) {
    const missing = has("home") ? "away" : "home"
    return { _tag: "none", why: [`The lines protocol reads home and guest together: note ${fieldWord(missing)} too at each moment.`] }
  }
  const pattern = linesPattern(found, letterPeriod)
  return {
    _tag: "block",
    choices: [{
      options: { pattern },
      lines: [`${indent}protocol: lines`, `${indent}options:`, `${indent}  pattern: '${pattern.replaceAll("'", "''")}'`],
      sport: "basketball"
    }],
    notes: letterPeriod ? ["The lines protocol reads the period as a number: a line showing a letter there is skipped."] : []
  }
}

interface DaktronicsPlace {
  readonly what: string
  readonly fields: Readonly<Partial<Record<ObservedField, { readonly offset: number; readonly length: number }>>>
}

const everySport: DaktronicsPlace = {
  what: "every sport",
  fields: { home: common.homeScore, away: common.awayScore, period: common.period, clock: common.clock }
}

const volleyballGame: DaktronicsPlace = {
  what: "volleyball with volleyballPoints: game",
  fields: { home: volleyball.homeCurrentGame, away: volleyball.awayCurrentGame, period: common.period, clock: common.clock }
}

const within = (c: Candidate, place: { readonly offset: number; readonly length: number } | undefined) =>
  place !== undefined && c.first >= place.offset && c.last <= place.offset + place.length - 1

const fits = (place: DaktronicsPlace, found: ReadonlyArray<Found>) => found.every((f) => within(f.range, place.fields[f.field]))

const placeText = (p: { readonly offset: number; readonly length: number }) => `${p.offset}-${p.offset + p.length - 1}`

/** Which of the adapter's RTD layouts the offsets are: there is no option to move a field. */
const daktronicsBlock = (found: ReadonlyArray<Found>): Block => {
  if (fits(everySport, found)) {
    return {
      _tag: "block",
      choices: [{
        options: {},
        lines: [`${indent}protocol: daktronics-rtd`, `${indent}# no options: these are the fields the adapter reads for every sport`],
        sport: "basketball"
      }],
      notes: [
        "These are the adapter's fields for every sport (score 107-110 / 111-114, period 141-142, clock 0-4): "
          + "no options; set the place's sport (e.g. sport: basketball)."
      ]
    }
  }
  if (fits(volleyballGame, found)) {
    return {
      _tag: "block",
      choices: [{
        options: { volleyballPoints: "game" },
        lines: [`${indent}protocol: daktronics-rtd`, `${indent}options: { volleyballPoints: game }`],
        sport: "volleyball"
      }],
      notes: ["These are the adapter's volleyball current-game fields (239-240 / 259-260): set sport: volleyball with the option above."]
    }
  }
  const misfits = found.filter((f) => !within(f.range, everySport.fields[f.field]) && !within(f.range, volleyballGame.fields[f.field]))
  return {
    _tag: "none",
    why: [
      ...misfits.map((f) => {
        const at = [everySport, volleyballGame].map((p) => p.fields[f.field]).filter((p) => p !== undefined).map(placeText)
        return `${fieldWord(f.field)} at ${describeRange("daktronics-rtd", f.range)}: the adapter reads it at ${[...new Set(at)].join(" or ")}.`
      }),
      ...(misfits.length === 0 ? ["The fields fit none of the adapter's layouts together (some are every sport's, some volleyball's current-game)."] : []),
      "None of the adapter's layouts reads this console: send the capture to support."
    ]
  }
}

/** The options block that reads the found fields, in the protocol's own terms. */
export const optionsBlock = (protocol: LearnableProtocol, found: ReadonlyArray<Found>, letterPeriod: boolean): Block => {
  switch (protocol) {
    case "fairplay-mp70":
    case "stramatel-452m":
      return fieldsBlock(protocol, found)
    case "lines":
      return linesBlock(found, letterPeriod)
    case "daktronics-rtd":
      return daktronicsBlock(found)
  }
}
