import { ETX, STX } from "./framing.ts"
import { defaultMinLength, defaultPositions, type FieldName } from "./options.ts"

/**
 * Builds packets as an MP-70 console sends them, to simulate one in tests,
 * the demo and benchmarks: STX, type letter, data padded with spaces, ETX.
 * Throws on values the console could not show and on fields that collide.
 */
export interface PacketLayout {
  /** Field positions counted from the STX; defaults as documented. */
  readonly positions?: Partial<Record<FieldName, number>>
  /** Whole packet, STX and ETX included. Default 80. */
  readonly length?: number
}

export interface StateFields {
  readonly home?: number
  readonly away?: number
  /** A digit, or `O` (overtime). */
  readonly period?: number | "O"
  /** Up to four penalty clocks `M:SS` (home 1, home 2, guest 1, guest 2), at 52–71 in the documented layout. */
  readonly penalties?: ReadonlyArray<string | undefined>
}

const blank = 0x20
const penaltiesAt = 52

const blankPacket = (type: "C" | "H", length: number) => {
  if (!Number.isInteger(length) || length < 8) throw new RangeError(`packet length ${length} is too short`)
  const packet = new Uint8Array(length).fill(blank)
  packet[0] = STX
  packet[1] = type.charCodeAt(0)
  packet[length - 1] = ETX
  return packet
}

/** Writes `text` at `at`, refusing to overwrite the framing or another field. */
const writer = (packet: Uint8Array) => {
  const taken = new Set<number>()
  return (at: number, text: string, what: string) => {
    if (at < 2 || at + text.length > packet.length - 1) throw new RangeError(`${what} at ${at} does not fit in a ${packet.length}-byte packet`)
    for (let i = 0; i < text.length; i++) {
      if (taken.has(at + i)) throw new RangeError(`${what} at ${at} overlaps another field`)
      taken.add(at + i)
      packet[at + i] = text.charCodeAt(i)
    }
  }
}

/** `M:SS` or `MM:SS` → `MMSS` with the minutes blank-padded, as the console shows ` 959`. */
const clockDigits = (clock: string, what: string): string => {
  const parts = /^(\d{1,2}):([0-5]\d)$/.exec(clock)
  if (parts === null) throw new RangeError(`${what} ${clock} is not M:SS`)
  return `${String(Number(parts[1])).padStart(2, " ")}${parts[2]}`
}

/** Right-aligned in two bytes and a trailing blank (` 3 `, `12 `); three digits fill the field. */
const scoreText = (score: number): string => {
  if (!Number.isInteger(score) || score < 0 || score > 999) throw new RangeError(`score ${score} does not fit in 3 digits`)
  return score > 99 ? String(score) : `${String(score).padStart(2, " ")} `
}

const periodText = (period: number | "O"): string => {
  if (period === "O") return "O"
  if (!Number.isInteger(period) || period < 0 || period > 9) throw new RangeError(`period ${period} is not one digit`)
  return String(period)
}

/** A type `C` packet: the game clock. */
export const clockPacket = (clock: string, layout: PacketLayout = {}): Uint8Array => {
  const packet = blankPacket("C", layout.length ?? defaultMinLength)
  writer(packet)(layout.positions?.clock ?? defaultPositions.clock, clockDigits(clock, "clock"), "clock")
  return packet
}

/** A type `H` packet: scores, period and penalty clocks; a field left out is blank. */
export const statePacket = (fields: StateFields, layout: PacketLayout = {}): Uint8Array => {
  const packet = blankPacket("H", layout.length ?? defaultMinLength)
  const write = writer(packet)
  const at = (field: FieldName) => layout.positions?.[field] ?? defaultPositions[field]
  if (fields.home !== undefined) write(at("home"), scoreText(fields.home), "home")
  if (fields.away !== undefined) write(at("guest"), scoreText(fields.away), "guest")
  if (fields.period !== undefined) write(at("period"), periodText(fields.period), "period")
  ;(fields.penalties ?? []).slice(0, 4).forEach((penalty, i) => {
    if (penalty !== undefined) write(penaltiesAt + 5 * i, clockDigits(penalty, "penalty").replace(" ", "0"), `penalty ${i + 1}`)
  })
  return packet
}
