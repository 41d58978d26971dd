import { frame as rtdFrame } from "../../adapters/daktronics-rtd/encode.ts"
import { ascii } from "../../scripts/support/bytes.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import type { Observation } from "../../src/commissioning/layout-observation.ts"

/**
 * Raw frames for the layout finder's tests, built here rather than with the adapters' encoders
 * (which only know the documented layouts): each test console says where it writes each field.
 */
export interface Shown {
  readonly home: number
  readonly away: number
  readonly period: number
  /** `M:SS` or `MM:SS`. */
  readonly clock: string
  /** Something else the board shows beside the score (a penalty clock, a player's points): noise for the finder. */
  readonly other?: number
}

/** Text written at a byte position. */
export type Writes = ReadonlyArray<readonly [number, string]>

/** One frame of a console's kind: the bytes of `kind` (its letter, code or line) with the fields written in. */
export type ConsoleLayout = (shown: Shown) => ReadonlyArray<Uint8Array>

const filled = (length: number, writes: Writes): Uint8Array => {
  const bytes = new Uint8Array(length).fill(0x20)
  for (const [at, text] of writes) bytes.set(ascii(text), at)
  return bytes
}

/** STX, the type letter, blanks with `writes`, ETX: `length` bytes in all. */
export const fairplayPacket = (type: string, length: number, writes: Writes): Uint8Array => {
  const packet = filled(length, writes)
  packet[0] = 0x02
  packet[1] = type.charCodeAt(0)
  packet[length - 1] = 0x03
  return packet
}

/** A 54-byte Stramatel frame: 0xF8, the sport code, blanks with `writes`, 0x0D. */
export const stramatelFrame = (code: number, writes: Writes): Uint8Array => {
  const frame = filled(54, writes)
  frame[0] = 0xf8
  frame[1] = code
  frame[53] = 0x0d
  return frame
}

/** A text line of `length` columns (blanks with `writes`), CRLF-ended. */
export const textLine = (length: number, writes: Writes): Uint8Array => ascii(`${String.fromCharCode(...filled(length, writes))}\r\n`)

/** RTD data frames writing each text at its buffer offset. */
export const rtdWrites = (writes: Writes): ReadonlyArray<Uint8Array> => writes.map(([at, text]) => rtdFrame(at, text))

/** Right-aligned in `width` blanks: ` 3`, `12`. */
export const right = (value: number | string, width: number) => String(value).padStart(width, " ")

/** `MMSS` with blank-padded minutes, as Fair-Play and Stramatel write the clock: ` 756`, `1234`. */
export const mmss = (clock: string) => {
  const [m, s] = clock.split(":") as [string, string]
  return `${m.padStart(2, " ")}${s}`
}

export const t0 = Date.UTC(2026, 10, 25, 14, 0, 0)

/** Each moment of a game lasts this long; its frames are sent at its start and twice more. */
export const momentMs = 5_000

/**
 * A game as chunks: moment i starts at t0 + i × 5 s, its frames sent then and again 1 s and 3 s
 * later (consoles repeat their state), each frame its own chunk.
 */
export const gameChunks = (layout: ConsoleLayout, moments: ReadonlyArray<Shown>): Array<ReceivedChunk> =>
  moments.flatMap((shown, i) =>
    [0, 1_000, 3_000].flatMap((delay) => layout(shown).map((bytes) => ({ bytes, receivedAt: t0 + i * momentMs + delay })))
  )

/** What the technician notes at moment i: read 4 s into it (seconds from t0 as `when`). */
export const noteAt = (moments: ReadonlyArray<Shown>, i: number, fields: ReadonlyArray<keyof Shown> = ["home", "away", "period", "clock"]): Observation => {
  const shown = moments[i]!
  const at = t0 + i * momentMs + 4_000
  return {
    at,
    when: `${(at - t0) / 1000} s`,
    noted: Object.fromEntries(fields.map((f) => [f, String(shown[f])]))
  }
}

/** A hockey game: scores up to two digits, three periods, penalties running beside the score. */
export const hockeyGame: ReadonlyArray<Shown> = [
  { home: 0, away: 0, period: 1, clock: "15:00" },
  { home: 1, away: 0, period: 1, clock: "12:34", other: 200 },
  { home: 1, away: 2, period: 2, clock: "9:58", other: 130 },
  { home: 3, away: 2, period: 3, clock: "4:05" },
  { home: 12, away: 7, period: 3, clock: "0:47", other: 45 }
]
