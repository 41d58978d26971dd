import type { LaneBoard, RaceBoard } from "../../src/domain/race.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { maxPeriod, maxScore } from "../shared/field-values.ts"
import { blankedFlag, type DigitSpan, eventHeat, laneChannels, raceClock } from "./channel-map.ts"
import { laneBoardOf } from "./lane-module.ts"
import { isDark, type ModuleContent, type Modules, moduleText } from "./modules.ts"
import type { FieldName, FieldPlace } from "./options.ts"
import type { ClockFace, RaceClockModule } from "./race-clock.ts"

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

/** The digits of a span as text, or undefined when a digit in it is over 9 or missing. */
const spanText = (digits: ReadonlyArray<number>, { first, last }: DigitSpan): string | undefined => {
  let text = ""
  for (let position = first; position <= last; position++) {
    const d = digits[position]
    if (d === undefined || (!isDark(d) && d > 9)) return undefined
    text += isDark(d) ? " " : String(d)
  }
  return text
}

/** A blank-padded number: undefined when blank, or when a blank splits its digits (never guessed). */
export const numberIn = (digits: ReadonlyArray<number>, span: DigitSpan): number | undefined => {
  const shown = spanText(digits, span)?.trim()
  return shown === undefined || shown === "" || !/^\d+$/u.test(shown) ? undefined : Number(shown)
}

/** MSS or MMSS, minutes blank-padded: "9:59", "10:00"; undefined when blank or not a clock. */
export const gameClockIn = (digits: ReadonlyArray<number>, span: DigitSpan): string | undefined => {
  const text = spanText(digits, span)
  if (text === undefined || text.trim() === "") return undefined
  const minutes = text.slice(0, -2).trim()
  const seconds = text.slice(-2)
  if (!/^\d*$/u.test(minutes) || !/^[0-5]\d$/u.test(seconds)) return undefined
  return `${minutes === "" ? "0" : String(Number(minutes))}:${seconds}`
}

/** Whether a format packet marks the module blanked: the 4 flag on every digit. */
const isBlanked = (format: ModuleContent | undefined): boolean =>
  format !== undefined && format.digits.every((flags) => !isDark(flags) && (flags & blankedFlag) !== 0)

/** The race as the confirmed modules and the clock show it. */
export const raceBoardOf = (modules: Modules, face: ClockFace | undefined): RaceBoard => {
  const lanes: Array<LaneBoard> = []
  let formats = 0
  let blankedFormats = 0
  for (const [channel, lane] of [...laneChannels].sort((a, b) => a[1] - b[1])) {
    const format = modules.format(channel)
    const blanked = isBlanked(format)
    if (format !== undefined) formats++
    if (blanked) blankedFormats++
    const content = modules.digits(channel)
    if (content !== undefined) lanes.push(laneBoardOf(lane, content, blanked))
  }
  const eventModule = modules.digits(eventHeat.channel)
  const event = eventModule === undefined ? undefined : numberIn(eventModule.digits, eventHeat.event)
  const heat = eventModule === undefined ? undefined : numberIn(eventModule.digits, eventHeat.heat)
  return {
    ...(face?.ms === undefined ? {} : { clockMs: face.ms }),
    clockReset: face?.reset ?? false,
    ...(event === undefined ? {} : { event }),
    ...(heat === undefined ? {} : { heat }),
    lanes,
    // Every lane channel whose format is known says blank: the console's blank mode.
    ...(formats > 0 && blankedFormats === formats ? { blanked: true } : {})
  }
}

/** The digits a field reads: channel 0 from the clock module (never confirmed), any other from its confirmed module. */
const digitsOf = (modules: Modules, clock: RaceClockModule, channel: number): ReadonlyArray<number> | undefined =>
  channel === raceClock.channel ? clock.digits : modules.digits(channel)?.digits

/** Home and away (both or neither), the period, the game clock, from the configured places. */
export const fieldsOf = (modules: Modules, clock: RaceClockModule, places: Partial<Record<FieldName, FieldPlace>>, reading: Draft): void => {
  const read = (field: FieldName, max: number) => {
    const place = places[field]
    const digits = place === undefined ? undefined : digitsOf(modules, clock, place.channel)
    const value = digits === undefined ? undefined : numberIn(digits, place!)
    return value !== undefined && value <= max ? value : undefined
  }
  const home = read("home", maxScore)
  const away = read("away", maxScore)
  if (home !== undefined && away !== undefined) {
    reading.home = home
    reading.away = away
  }
  const period = read("period", maxPeriod)
  if (period !== undefined) reading.period = period
  const clockPlace = places.gameClock
  const clockDigits = clockPlace === undefined ? undefined : digitsOf(modules, clock, clockPlace.channel)
  const shown = clockDigits === undefined ? undefined : gameClockIn(clockDigits, clockPlace!)
  if (shown !== undefined) reading.clock = shown
}

/** Every confirmed channel but the clock, as the status page lists what the board shows: "channel 13" "  0 0  0". */
export const shownOf = (modules: Modules): NonNullable<Reading["shown"]> =>
  modules.confirmedChannels().flatMap((channel) => {
    const content = modules.digits(channel)!
    const text = moduleText(content)
    if (channel === raceClock.channel || text.trim() === "") return []
    return [{ label: `channel ${channel}${content.running ? " (running)" : ""}`, text }]
  })
