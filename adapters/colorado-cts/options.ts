import { Schema } from "effect"
import type { OptionProblem } from "../decoder.ts"
import { type DigitSpan, eventHeat, laneChannels, raceClock } from "./channel-map.ts"
import { channels } from "./modules.ts"

/**
 * Where a console shows a team score, the period or a game clock is not established (channel 20 or
 * 13 for dual-meet scores; two water polo maps that disagree): there is no default. Each field is
 * `{ channel, digits: "F-L" }`, digit positions 0–7 from the left, both ends included.
 */
export const fieldNames = ["home", "away", "period", "gameClock"] as const

export type FieldName = typeof fieldNames[number]

const widths: Readonly<Record<FieldName, { readonly min: number; readonly max: number; readonly what: string }>> = {
  home: { min: 1, max: 4, what: "a score is 1 to 4 digits" },
  away: { min: 1, max: 4, what: "a score is 1 to 4 digits" },
  period: { min: 1, max: 2, what: "the period is 1 or 2 digits" },
  gameClock: { min: 3, max: 4, what: "the clock is 3 or 4 digits (MSS or MMSS)" }
}

const digitsShape = /^([0-7])(?:-([0-7]))?$/u

/** `"0-3"` → positions 0 to 3; `"5"` → position 5. */
export const parseDigits = (text: string): DigitSpan | string => {
  const parts = digitsShape.exec(text.trim())
  if (parts === null) return `${JSON.stringify(text)} is not "<first>-<last>" with positions 0 to 7, like "0-3" (one digit: "1")`
  const first = Number(parts[1])
  const last = parts[2] === undefined ? first : Number(parts[2])
  return last < first ? `${JSON.stringify(text)}: the last position ${last} comes before the first ${first}` : { first, last }
}

const DigitsText = Schema.String.check(Schema.makeFilter((text: string) => {
  const parsed = parseDigits(text)
  return typeof parsed === "string" ? parsed : undefined
}))

const FieldSpec = (what: string) =>
  Schema.Struct({
    channel: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: channels - 1 })).annotate({ description: "The channel (module) number the console sends, 0–31." }),
    digits: DigitsText.annotate({ description: "Digit positions of the module, 0–7 from the left, both ends included: \"0-3\", or one as \"1\"." })
  }).annotate({ description: what })

/** A field as the decoder reads it. */
export interface FieldPlace extends DigitSpan {
  readonly channel: number
}

type Given = Partial<Record<FieldName, { readonly channel: number; readonly digits: string }>>

/** The configured fields, or the first problem with them, naming the option. */
export const fieldPlaces = (options: Given): Partial<Record<FieldName, FieldPlace>> | OptionProblem => {
  const places: Partial<Record<FieldName, FieldPlace>> = {}
  for (const field of fieldNames) {
    const given = options[field]
    if (given === undefined) continue
    const span = parseDigits(given.digits)
    if (typeof span === "string") return { path: [field, "digits"], issue: span }
    const { min, max, what } = widths[field]
    const width = span.last - span.first + 1
    if (width < min || width > max) return { path: [field, "digits"], issue: `${field}: ${what}, not ${width}` }
    if (field !== "gameClock" && given.channel === raceClock.channel) {
      return { path: [field, "channel"], issue: `${field}: channel 0 is the running clock, which changes every tenth and is never confirmed by repetition; a score or period comes from channels 1–31` }
    }
    const clash = fieldNames.find((other) => places[other]?.channel === given.channel && places[other]!.first <= span.last && span.first <= places[other]!.last)
    if (clash !== undefined) return { path: [field, "digits"], issue: `${field} at channel ${given.channel} digits ${given.digits} shares digits with ${clash}` }
    places[field] = { channel: given.channel, ...span }
  }
  if ((places.home === undefined) !== (places.away === undefined)) {
    const missing = places.home === undefined ? "home" : "away"
    return { path: [missing], issue: `home and away go together: give ${missing} too, or neither (a score needs both sides)` }
  }
  return places
}

export const isProblem = (value: object): value is OptionProblem => "issue" in value

/**
 * The `options` block of a Colorado console. All optional: `{}` reads the swimming board (clock,
 * event, heat, lanes) and, in water polo, shows the confirmed channels without reading a score.
 */
export const optionsSchema = Schema.Struct({
  home: Schema.optionalKey(FieldSpec("Home team score: { channel, digits }, e.g. { channel: 20, digits: \"0-3\" } (unverified; see the adapter's README).")),
  away: Schema.optionalKey(FieldSpec("Guest team score: { channel, digits }; with home, or neither.")),
  period: Schema.optionalKey(FieldSpec("Period (water polo): { channel, digits }, 1 or 2 digits.")),
  gameClock: Schema.optionalKey(FieldSpec("Water polo game clock: { channel, digits }, 3 or 4 digits read as M:SS or MM:SS."))
}).check(Schema.makeFilter((options) => {
  const places = fieldPlaces(options)
  return isProblem(places) ? places : undefined
}))

export type ColoradoOptions = typeof optionsSchema.Type

/** Channels the swimming board reads for itself: a score there would be a lane, or the event and heat. */
const swimmingChannel = (channel: number): string | undefined =>
  channel === raceClock.channel
    ? "the race clock"
    : channel === eventHeat.channel
    ? "the event and heat"
    : laneChannels.has(channel)
    ? `lane ${laneChannels.get(channel)}`
    : undefined

/** What the place's sport makes wrong: in swimming, a game clock, or a field on a channel the race board reads. */
export const sportProblems = (options: ColoradoOptions, sport: string): ReadonlyArray<OptionProblem> => {
  if (sport !== "swimming") return []
  const problems: Array<OptionProblem> = []
  if (options.gameClock !== undefined) {
    problems.push({ path: ["gameClock"], issue: "gameClock is for water polo: in swimming the clock is the race clock on channel 0, read without options" })
  }
  for (const field of ["home", "away", "period"] as const) {
    const taken = options[field] === undefined ? undefined : swimmingChannel(options[field]!.channel)
    if (taken !== undefined) problems.push({ path: [field, "channel"], issue: `${field}: channel ${options[field]!.channel} is ${taken} in the swimming layout` })
  }
  return problems
}
