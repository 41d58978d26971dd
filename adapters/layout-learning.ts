import type { ReceivedChunk } from "../src/domain/received.ts"

/**
 * What `scorebridge learn` needs of a console whose fields sit at fixed places in its frames:
 * how to cut a recording into frames, how to name a place in them, and the options block that
 * reads fields found there. A console's definition carries it (`ProtocolDefinition.learn`); the
 * finder itself (src/commissioning/layout-*.ts) knows no console.
 */

/** The fields a technician notes off the board, as `learn` names them in its options block. */
export const observedFields = ["home", "away", "period", "clock"] as const

export type ObservedField = typeof observedFields[number]

/** The board's words for `field` in the technician's report: "guest" reads better than "away" to most rink staff. */
export const fieldWord = (field: ObservedField): string => (field === "away" ? "guest" : field)

/** Bytes `first` to `last` (inclusive) of frames of `kind` (a packet letter, a sport code, `buffer`, `line`). */
export interface ByteRange {
  readonly kind: string
  readonly first: number
  readonly last: number
}

/** `12` or `12-14`: a range's positions, both ends included. */
export const spanText = (range: ByteRange): string => (range.first === range.last ? `${range.first}` : `${range.first}-${range.last}`)

/** A field the finder placed: the tightest `range` that reads it, and the `block` the options should read (widened for values to come). */
export interface FoundField {
  readonly field: ObservedField
  readonly range: ByteRange
  readonly block: ByteRange
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

/** Called once per frame of a recording: its kind, when its first byte came, and its bytes as text (one character per byte). */
export type FrameSink = (kind: string, at: number, text: string) => void

/** Indentation of the options block's lines, as under a place's `scoreboard:`. */
export const blockIndent = "      "

export interface LayoutLearning {
  /** The console's own framing over the recorded chunks, each frame handed to `add`. */
  readonly frames: (chunks: ReadonlyArray<ReceivedChunk>, add: FrameSink) => void
  /** What a frame kind is called ("packet type", "sport code") when frames come in kinds; counts are then given per kind. */
  readonly kindWord?: string
  /** What the frames are called in the report's count: "frames", "data frames", "lines". */
  readonly framesWord: string
  /** How positions are counted, in the report: "Positions count bytes from the STX = 0, per packet type (letter)." */
  readonly positions: string
  /** A range in the console's words: the option text (`H 12-14`), buffer offsets, character columns. */
  readonly describeRange: (range: ByteRange) => string
  /**
   * How the adapter reads a number in its range: `both`, blanks trimmed on both sides;
   * `left`, right-aligned, blanks on the left only (a score's range may only grow to the left).
   */
  readonly scoreGrowth: "both" | "left"
  /** The adapter reads fixed places only (no option moves a field): the report says nothing of widening or of digits to come. */
  readonly fixedPlaces: boolean
  /** Whether the sport changes what the block reads (the report names the sport it checked with). */
  readonly sportMatters: boolean
  /** The options block that reads the found fields; `letterPeriod` when a period was noted as a letter (O). */
  readonly optionsBlock: (found: ReadonlyArray<FoundField>, letterPeriod: boolean) => Block
}
