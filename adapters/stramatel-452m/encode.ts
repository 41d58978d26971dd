import type { GamePoint, Side } from "../../src/domain/reading.ts"
import { frameEnd, frameLength, frameStart } from "./framing.ts"
import { type Digits, type Layout, layoutOf } from "./layouts.ts"
import { defaultSportCodes } from "./sport-codes.ts"

/**
 * Builds frames as a 452 M console sends them, to simulate one in the demo,
 * tests and benchmarks. Throws on values the console could not show.
 */
export interface FrameFields {
  readonly home?: number
  readonly away?: number
  readonly period?: number
  readonly setsWon?: readonly [number, number]
  /** Every set so far, the one in play included. */
  readonly sets?: ReadonlyArray<readonly [number, number]>
  readonly gamePoints?: readonly [GamePoint, GamePoint]
  readonly tieBreak?: boolean
  readonly serve?: Side
  /** `MM:SS`, `M:SS` (sent ` MSS`) or `SS.t`. */
  readonly clock?: string
  /** Volleyball: the clock bytes show the time of day (byte 21 = `1`). */
  readonly timeOfDay?: boolean
  readonly teamFouls?: readonly [number, number]
  readonly timeouts?: readonly [number, number]
  /** Penalty slots 1–3 per side: the time left (`M:SS`) of a running slot, undefined for a slot that does not run. */
  readonly penalties?: { readonly home: ReadonlyArray<string | undefined>; readonly away: ReadonlyArray<string | undefined> }
  /** Basketball shot clock, two bytes as sent (` 8`, or `6D` for 6.4 s: tenths as a letter). */
  readonly shotClock?: string
}

const blank = 0x20

const put = (frame: Uint8Array, at: number, text: string) => {
  for (let i = 0; i < text.length; i++) frame[at + i] = text.charCodeAt(i)
}

const putNumber = (frame: Uint8Array, field: Digits, value: number) => {
  const text = String(value)
  if (!Number.isInteger(value) || value < 0 || text.length > field.width) {
    throw new RangeError(`${value} does not fit in ${field.width} digits`)
  }
  put(frame, field.at, text.padStart(field.width, " "))
}

const clockText = (clock: string): string => {
  const minutes = /^(\d{1,2}):(\d{2})$/.exec(clock)
  // `MM:SS` is sent as shown; `M:SS` blank-padded, as consoles show minutes under ten.
  if (minutes !== null) return `${minutes[1]!.padStart(2, " ")}${minutes[2]}`
  const seconds = /^(\d{1,2})\.(\d)$/.exec(clock)
  if (seconds !== null) return `${seconds[1]!.padStart(2, " ")}${seconds[2]} `
  throw new RangeError(`clock ${clock} is neither MM:SS nor SS.t`)
}

/** The flag byte for the running slots (0-based), as the code table gives it. */
const runningFlag: Readonly<Record<string, string>> = { "": " ", "0": "1", "0,1": "2", "0,1,2": "3", "1": "4", "2": "5", "1,2": "6", "0,2": "7" }

const penaltyText = (remaining: string): string => {
  const time = /^(\d):([0-5]\d)$/.exec(remaining)
  if (time === null) throw new RangeError(`penalty time ${remaining} is not M:SS`)
  return `${time[1]}${time[2]}`
}

const putPenalties = (bytes: Uint8Array, layout: NonNullable<Layout["penalties"]>, penalties: NonNullable<FrameFields["penalties"]>) => {
  for (const side of ["home", "away"] as const) {
    const slots = penalties[side]
    if (slots.length > 3) throw new RangeError("three penalty slots per side")
    const running = slots.flatMap((remaining, slot) => (remaining === undefined ? [] : [slot]))
    bytes[layout.running[side]] = runningFlag[running.join(",")]!.charCodeAt(0)
    slots.forEach((remaining, slot) => {
      if (remaining !== undefined) put(bytes, layout.clocks[side][slot]!, penaltyText(remaining))
    })
  }
}

/** One 54-byte frame; `sport` picks the layout when `sportCode` is not one of the default codes. */
export const frame = (
  sportCode: number,
  fields: FrameFields,
  sport = defaultSportCodes[`0x${sportCode.toString(16).padStart(2, "0")}`]
): Uint8Array => {
  const layout = sport === undefined ? undefined : layoutOf(sport)
  if (layout === undefined) throw new RangeError(`no layout for sport code 0x${sportCode.toString(16)}`)
  const bytes = new Uint8Array(frameLength).fill(blank)
  bytes[0] = frameStart
  bytes[1] = sportCode
  bytes[frameLength - 1] = frameEnd

  if (layout.score !== undefined && fields.home !== undefined && fields.away !== undefined) {
    putNumber(bytes, layout.score.home, fields.home)
    putNumber(bytes, layout.score.away, fields.away)
  }
  if (layout.gamePoints !== undefined) {
    if (fields.tieBreak === true) bytes[layout.gamePoints.tieBreak] = 0x31
    if (fields.gamePoints !== undefined) {
      put(bytes, layout.gamePoints.home.at, String(fields.gamePoints[0]).padStart(2, " "))
      put(bytes, layout.gamePoints.away.at, String(fields.gamePoints[1]).padStart(2, " "))
    }
  }
  if (layout.period !== undefined && fields.period !== undefined) putNumber(bytes, layout.period, fields.period)
  if (layout.setsWon !== undefined && fields.setsWon !== undefined) {
    putNumber(bytes, { at: layout.setsWon.home, width: 1 }, fields.setsWon[0])
    putNumber(bytes, { at: layout.setsWon.away, width: 1 }, fields.setsWon[1])
  }
  const sets = fields.sets ?? []
  layout.setSlots?.forEach((slot, i) => {
    const set = sets[i]
    if (set === undefined) return
    putNumber(bytes, { at: slot.home, width: 2 }, set[0])
    putNumber(bytes, { at: slot.away, width: 2 }, set[1])
  })
  // Tennis shows the set in play apart from the slots; volleyball shows it as the live points.
  const inPlay = fields.period === undefined ? undefined : sets[fields.period - 1]
  if (layout.currentSet !== undefined && layout.currentSet !== layout.score && inPlay !== undefined) {
    putNumber(bytes, layout.currentSet.home, inPlay[0])
    putNumber(bytes, layout.currentSet.away, inPlay[1])
  }
  if (layout.serve !== undefined && fields.serve !== undefined) bytes[layout.serve] = fields.serve === "home" ? 0x31 : 0x33
  if (layout.clock !== undefined && fields.clock !== undefined) put(bytes, layout.clock, clockText(fields.clock))
  if (layout.timeOfDay !== undefined) bytes[layout.timeOfDay] = fields.timeOfDay === true ? 0x31 : 0x30
  for (const key of ["teamFouls", "timeouts"] as const) {
    const at = layout[key]
    const value = fields[key]
    if (at === undefined || value === undefined) continue
    putNumber(bytes, { at: at.home, width: 1 }, value[0])
    putNumber(bytes, { at: at.away, width: 1 }, value[1])
  }
  if (layout.penalties !== undefined && fields.penalties !== undefined) putPenalties(bytes, layout.penalties, fields.penalties)
  if (fields.shotClock !== undefined) {
    if (fields.shotClock.length !== 2) throw new RangeError("the shot clock is two bytes")
    put(bytes, 48, fields.shotClock)
  }
  return bytes
}
