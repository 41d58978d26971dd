import type { Penalty } from "../../src/domain/reading.ts"
import { ETX, STX } from "./framing.ts"
import { isProblem, type LayoutOptions, resolveLayout } from "./layout.ts"
import type { PacketType, Placed } from "./variants.ts"

/**
 * Builds packets as an MP-70 console sends them, to simulate one in tests,
 * the demo and benchmarks: STX, type letter, data padded with spaces, ETX.
 * A packet carries the fields its layout puts in its type. Throws on values
 * the console could not show and on fields that collide.
 */
export interface Shown {
  /** `M:SS` or `MM:SS`. */
  readonly clock?: string
  readonly home?: number
  readonly away?: number
  /** A digit, or `O` (overtime). */
  readonly period?: number | "O"
  /**
   * Rink layout: up to two per team, player and time (`M:SS`, under 10:00) in the H packet's slots.
   * ProLine layout: the times only, as `MMSS` clocks at H 52, 57 (home) and 62, 67 (guest).
   */
  readonly penalties?: { readonly home?: ReadonlyArray<Penalty>; readonly away?: ReadonlyArray<Penalty> }
}

export interface PacketLayout extends LayoutOptions {
  /** Whole packet, STX and ETX included. Default: the shortest the layout reads. */
  readonly length?: number
  /** Rink layout: where a two-digit score sits in its 3 bytes (12–14): `left` 12–13, `right` 13–14 (default). */
  readonly twoDigits?: "left" | "right"
}

const blank = 0x20
const prolinePenaltyClocks = { home: [52, 57], away: [62, 67] } as const

const layoutOf = (options: PacketLayout) => {
  const layout = resolveLayout(options)
  if (isProblem(layout)) throw new RangeError(`${layout.path.join(".")}: ${layout.issue}`)
  return layout
}

const blankPacket = (type: PacketType, length: number) => {
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
  const write = (at: number, text: string, what: string) => {
    if (at < 2 || at + text.length > packet.length - 1) throw new RangeError(`${what} at ${at} does not fit in a ${packet.length}-byte packet`)
    for (let i = 0; i < text.length; i++) {
      if (taken.has(at + i)) throw new RangeError(`${what} at ${at} overlaps another field`)
      taken.add(at + i)
      packet[at + i] = text.charCodeAt(i)
    }
  }
  const free = (at: number, width: number) => Array.from({ length: width }, (_, i) => at + i).every((i) => !taken.has(i) && i < packet.length - 1)
  return { write, free }
}

/** `M:SS` or `MM:SS` → `MMSS` with the minutes blank-padded, as the console shows ` 959`. */
const clockDigits = (clock: string, what: string): string => {
  const parts = /^(\d{1,2}):([0-5]\d)$/u.exec(clock)
  if (parts === null) throw new RangeError(`${what} ${clock} is not M:SS`)
  return `${String(Number(parts[1])).padStart(2, " ")}${parts[2]}`
}

/** A rink penalty slot: player (2 digits), a blank, time `MSS` (`100` = 1:00). */
const penaltySlot = ({ player, remaining }: Penalty): string => {
  const parts = /^(\d):([0-5]\d)$/u.exec(remaining)
  if (parts === null) throw new RangeError(`penalty time ${remaining} is not M:SS under 10:00`)
  if (player !== undefined && !(Number.isInteger(player) && player >= 0 && player <= 99)) throw new RangeError(`player ${player} is not 0–99`)
  return `${player === undefined ? "  " : String(player).padStart(2, "0")} ${parts[1]}${parts[2]}`
}

const scoreText = (score: number, field: Placed, style: "centred" | "trailing-blank", twoDigits: "left" | "right"): string => {
  const width = field.last - field.first + 1
  const digits = String(score)
  if (!Number.isInteger(score) || score < 0 || digits.length > width) throw new RangeError(`score ${score} does not fit in ${width} bytes`)
  if (width !== 3 || digits.length === 3) return digits.padStart(width, " ")
  if (style === "trailing-blank") return `${digits.padStart(2, " ")} `
  if (digits.length === 1) return ` ${digits} `
  return twoDigits === "left" ? `${digits} ` : ` ${digits}`
}

const periodText = (period: number | "O"): string => {
  if (period === "O") return "O"
  if (!Number.isInteger(period) || period < 0 || period > 9) throw new RangeError(`period ${period} is not one digit`)
  return String(period)
}

const packet = (type: PacketType, shown: Shown, options: PacketLayout): Uint8Array => {
  const layout = layoutOf(options)
  const { fields, variant } = layout
  const bytes = blankPacket(type, options.length ?? layout.minLength[type])
  const { write, free } = writer(bytes)
  const here = (field: keyof typeof fields) => fields[field].type === type
  if (here("clock") && shown.clock !== undefined) write(fields.clock.first, clockDigits(shown.clock, "clock"), "clock")
  if (here("home") && shown.home !== undefined) write(fields.home.first, scoreText(shown.home, fields.home, variant.scoreStyle, options.twoDigits ?? "right"), "home")
  if (here("away") && shown.away !== undefined) write(fields.away.first, scoreText(shown.away, fields.away, variant.scoreStyle, options.twoDigits ?? "right"), "away")
  if (here("period") && shown.period !== undefined) write(fields.period.first, periodText(shown.period), "period")
  if (type === "H") {
    for (const side of ["home", "away"] as const) {
      const running = shown.penalties?.[side] ?? []
      if (variant.penaltySlots.length > 0) {
        const slots = variant.penaltySlots.filter((slot) => slot.side === side)
        if (running.length > slots.length) throw new RangeError(`${running.length} ${side} penalties: the console shows ${slots.length}`)
        running.forEach((penalty, i) => write(slots[i]!.at, penaltySlot(penalty), `${side} penalty ${i + 1}`))
      } else {
        if (running.length > 2) throw new RangeError(`${running.length} ${side} penalties: the console shows 2`)
        running.forEach((penalty, i) => write(prolinePenaltyClocks[side][i]!, clockDigits(penalty.remaining, "penalty").replace(" ", "0"), `${side} penalty ${i + 1}`))
      }
    }
  }
  for (const [fillerType, at, text] of variant.filler) if (fillerType === type && free(at, text.length)) write(at, text, "filler")
  return bytes
}

/** A type `C` packet: the clock, and in the rink layout the period. */
export const clockPacket = (shown: Shown, options: PacketLayout = {}): Uint8Array => packet("C", shown, options)

/** A type `H` packet: the scores and penalties, and in the ProLine layout the period. A field left out is blank. */
export const statePacket = (shown: Shown, options: PacketLayout = {}): Uint8Array => packet("H", shown, options)
