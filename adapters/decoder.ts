import type { Schema } from "effect"
import type { Reading } from "../src/domain/reading.ts"
import type { LayoutLearning } from "./layout-learning.ts"

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

/** A problem with one option, at its path under the scoreboard's `options`. */
export interface OptionProblem {
  readonly path: ReadonlyArray<string>
  readonly issue: string
}

/** A sport group whose frames read alike and do not say which of them is played (Stramatel's code 0x35). */
export interface SportFamily {
  readonly words: string
  readonly sports: ReadonlyArray<string>
}

/** A layout a protocol's consoles differ by that the wire tells apart (Fair-Play's packet lengths). */
export interface ProtocolVariant {
  readonly name: string
  readonly words: string
  readonly options: Readonly<Record<string, string | number>>
}

/**
 * How `scorebridge sniff` recognises the console from its bytes alone: it decodes what it heard
 * with the protocol's default options (they must take `{}`), heard with the protocol's own framing
 * (`serialDefaults` data bits, parity, stop bits) at each line speed tried, for each sport and
 * variant below, and calls the protocol clean when the frames decode with hardly any bad.
 */
export interface Recognition {
  /** Sports worth trying when the stream does not name its sport; default every sport, one per family. */
  readonly sports?: ReadonlyArray<string>
  /**
   * When one kind of frame serves several sports and does not say which (Stramatel's code 0x35:
   * handball, football, hockey, floorball), the groups of `sports` read alike, in the console's
   * words: `sniff` tries one sport per group and names the group. Without it, every sport is tried.
   */
  readonly sportFamilies?: ReadonlyArray<SportFamily>
  /**
   * Layouts the protocol's consoles differ by that the wire tells apart: `sniff` decodes with each
   * and prints the options of the one that reads cleanly. The first is the default (its options
   * are {}). Without it, `sniff` tries {} only.
   */
  readonly variants?: ReadonlyArray<ProtocolVariant>
  /**
   * Speeds the console's documentation gives besides `serialDefaults.baudRate` (Colorado's slow
   * mode, 2400): `sniff` tries them too, at the protocol's framing, whatever speeds it was given.
   */
  readonly otherBaudRates?: ReadonlyArray<number>
}

/**
 * A console is data: everything the bridge, its config, `sniff` and `learn` know of it is here,
 * in the console's folder, and `adapters/registry.ts` lists it.
 */
export interface ProtocolDefinition<Options = unknown> {
  readonly name: string
  readonly description: string
  /** A few words after the name in the config's list of protocols: "Bodet Scorepad, message 11". */
  readonly summary: string
  /** Who makes the console, as the setup page lists makers: "Stramatel"; "Other" for a generic protocol (lines, json). */
  readonly maker: string
  /** The model or models under the maker, as the technician reads it on the console: "452 M". */
  readonly model: string
  /**
   * How to connect it, for the technician at the console: which port, which cable, the line
   * settings, from the adapter's README and protocol notes; what the notes do not settle is said so.
   */
  readonly wiring: string
  /** Serial line defaults from the controller's documentation (sniff tries the common speeds). */
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
  /** Decodes the protocol-specific `options` block of a place's scoreboard config. */
  readonly optionsSchema: Schema.Codec<Options, unknown>
  /**
   * What in the decoded options the place's sport makes wrong (an option the decoder would
   * never use at that sport), each at its path under `options`; checked with the config when
   * the place names its sport.
   */
  readonly sportProblems?: (options: Options, sport: string) => ReadonlyArray<OptionProblem>
  /**
   * A place's `scoreboard:` for this console, in YAML as under the place (no indentation): the
   * tests check it passes `scorebridge check`; the docs show it.
   */
  readonly example: string
  /** How `sniff` recognises it; without it (lines, json: a field map comes first), sniff does not try it. */
  readonly recognise?: Recognition
  /** How `learn` finds its fields; without it, the console has no fixed places to learn. */
  readonly learn?: LayoutLearning
  makeDecoder(options: Options & { readonly sport: string; readonly maxFrameBytes?: number }): Decoder
}
