import type { Schema } from "effect"
import type { Reading } from "../src/domain/reading.ts"

/**
 * A controller protocol's decoder. Pure (no I/O) but stateful: it owns the
 * bounded framing buffer and, for protocols that send partial updates, the
 * per-port state buffer. One instance per port or per MQTT topic.
 * `push` must never throw, whatever bytes it is given.
 */
export interface Decoder {
  /**
   * Feed received bytes; returns the readings completed by them, each stamped with the
   * `receivedAt` of the chunk that brought its frame's first byte (a frame split over
   * two reads began to show its change at the first).
   */
  push(chunk: Uint8Array, receivedAt: number): ReadonlyArray<Reading>
  /** Counters for status and metrics. */
  readonly stats: DecoderStats
}

export interface DecoderStats {
  /** Frames (or lines, or payloads) that decoded. */
  frames: number
  /** Frames rejected: bad checksum, malformed, missing or out-of-range fields. */
  badFrames: number
  /** Frames or lines discarded for exceeding the maximum length. */
  overlong: number
  /** Bytes skipped while resynchronising. */
  skippedBytes: number
}

export const emptyStats = (): DecoderStats => ({ frames: 0, badFrames: 0, overlong: 0, skippedBytes: 0 })

/** A protocol is data: its name, line defaults and a decoder factory. */
export interface ProtocolDefinition<Options = unknown> {
  readonly name: string
  readonly description: string
  /** Serial line defaults from the controller's documentation. */
  readonly serialDefaults: { readonly baudRate: number; readonly dataBits: 7 | 8; readonly parity: "none" | "even" | "odd"; readonly stopBits: 1 | 2 }
  /**
   * How the controller reports a change. `full`: every frame or message carries the whole
   * state, so each is a state the board showed and becomes an entry at once. `partial`: only
   * changed ranges are sent and one change may span several frames, so readings are settled
   * (src/scoring/change-settler.ts) before they become entries.
   */
  readonly updates: "full" | "partial"
  /** Sports this decoder knows field layouts for (API sport codes). */
  readonly sports: ReadonlyArray<string>
  /**
   * When one kind of frame serves several sports and does not say which (Stramatel's code 0x35:
   * handball, football, hockey, floorball), the groups of `sports` read alike, in the console's
   * words: `sniff` tries one sport per group and names the group. Without it, every sport is tried.
   */
  readonly sportFamilies?: ReadonlyArray<{ readonly words: string; readonly sports: ReadonlyArray<string> }>
  /**
   * Layouts the protocol's consoles differ by that the wire tells apart (Fair-Play's packet
   * lengths): `sniff` decodes with each and prints the options of the one that reads cleanly.
   * The first is the default (its options are {}). Without it, `sniff` tries {} only.
   */
  readonly variants?: ReadonlyArray<{ readonly name: string; readonly words: string; readonly options: Readonly<Record<string, string | number>> }>
  /** Decodes the protocol-specific `options` block of a place's scoreboard config. */
  readonly optionsSchema: Schema.Codec<Options, unknown>
  makeDecoder(options: Options & { readonly sport: string; readonly maxFrameBytes?: number }): Decoder
}
