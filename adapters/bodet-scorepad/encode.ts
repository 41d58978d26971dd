import { ETX, group, SOH, STX } from "./framing.ts"

/**
 * Builds frames as a Scorepad sends them, written from the protocol facts
 * (not from the decoder), to simulate a console in tests. Throws on values
 * the console could not show.
 */
export interface FrameOptions {
  /** 0x7F and 0xFF are seen. */
  readonly address?: number
}

/** The protocol note's rule, kept apart from the decoder's so a test can catch either going wrong. */
const lrc = (bytes: ReadonlyArray<number>): number => {
  const xor = bytes.reduce((a, b) => a ^ b, 0) & 0x7f
  return xor < 0x20 ? xor + 0x20 : xor
}

/** `SOH addr STX 'G' type data ETX LRC`; `data` as bytes, or text of one byte per character. */
export const frame = (type: string, data: ArrayLike<number> | string, { address = 0x7f }: FrameOptions = {}): Uint8Array => {
  if (!/^\d\d$/u.test(type)) throw new RangeError(`message type ${type} is not two digits`)
  const body = typeof data === "string" ? Array.from(data, (c) => c.charCodeAt(0)) : Array.from(data)
  if (body.some((b) => b > 0xff || b < 0x20)) throw new RangeError("data bytes must be 0x20–0xFF")
  const covered = [address, STX, group, type.charCodeAt(0), type.charCodeAt(1), ...body, ETX]
  return Uint8Array.from([SOH, ...covered, lrc(covered)])
}

export interface Message11 {
  /** Status byte; bit 7 set. Default 0x80. */
  readonly status?: number
  /** Default '7' (floorball in the captures). */
  readonly sportDigit?: string
  /** `M:SS` or `MM:SS`; omitted: blank. */
  readonly clock?: string
  /** Omitted: blank (not shown). */
  readonly home?: number
  readonly away?: number
  /** A digit, or a letter such as "E" for extra time; omitted: blank. */
  readonly period?: number | string
}

/** As the examples show scores: two digits at least (" 04", " 00"), blank-padded to three. */
const scoreText = (value: number | undefined): string => {
  if (value === undefined) return "   "
  const text = String(value)
  if (!Number.isInteger(value) || value < 0 || text.length > 3) throw new RangeError(`${value} does not fit in 3 digits`)
  return text.padStart(2, "0").padStart(3, " ")
}

/** " 134" for 1:34: minutes blank-padded, seconds two digits. */
const clockText = (clock: string | undefined): string => {
  if (clock === undefined) return "    "
  const match = /^(\d{1,2}):(\d\d)$/u.exec(clock)
  if (match === null) throw new RangeError(`clock ${clock} is not M:SS`)
  return `${String(Number(match[1])).padStart(2, " ")}${match[2]}`
}

const periodText = (period: number | string | undefined): string => {
  if (period === undefined) return " "
  const text = String(period)
  if (text.length !== 1) throw new RangeError(`period ${period} is not one character`)
  return text
}

/** Message 11: status, sport digit, clock, home, guest, period. */
export const message11 = (fields: Message11, options?: FrameOptions): Uint8Array => {
  const status = fields.status ?? 0x80
  const sport = fields.sportDigit ?? "7"
  if (!/^\d$/u.test(sport)) throw new RangeError(`sport ${sport} is not a digit`)
  const text = sport + clockText(fields.clock) + scoreText(fields.home) + scoreText(fields.away) + periodText(fields.period)
  return frame("11", [status, ...Array.from(text, (c) => c.charCodeAt(0))], options)
}

export interface Penalty {
  /** `M:SS` left to serve. */
  readonly left: string
  readonly running: boolean
}

/**
 * Messages 12 (home) and 13 (guest) as the open-source parser reads them:
 * status byte, then per player a flag byte (bit 7 set; above 0x80 while the
 * penalty runs) and `mss`. Only their shape matters here: they must never
 * become a score.
 */
export const penalties = (type: "12" | "13", players: ReadonlyArray<Penalty>, options?: FrameOptions): Uint8Array => {
  const data = [0x80]
  for (const { left, running } of players) {
    const match = /^(\d):(\d\d)$/u.exec(left)
    if (match === null) throw new RangeError(`penalty time ${left} is not M:SS`)
    data.push(running ? 0x81 : 0x80, ...Array.from(`${match[1]}${match[2]}`, (c) => c.charCodeAt(0)))
  }
  return frame(type, data, options)
}
