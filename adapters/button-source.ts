import type { Schema } from "effect"
import type { ButtonEvent } from "../src/domain/button.ts"

/** What the transport knows about one push: the MQTT topic and retain flag, when there is one. */
export interface ButtonInputMeta {
  readonly topic?: string | undefined
  readonly retained?: boolean | undefined
}

export interface ButtonDecoderStats {
  /** MQTT messages, lines or input records seen. */
  messages: number
  /** Well-formed input that is not a press: retained, battery reports, key repeats, other keys, bounce. */
  ignored: number
  /** Malformed input: not JSON, wrong shape, a line that does not match, an unknown gesture word. */
  bad: number
  /** Repeats of a press already seen (Shelly `event_cnt`, a serial counter, an MQTT redelivery). */
  duplicates: number
}

export const emptyButtonStats = (): ButtonDecoderStats => ({ messages: 0, ignored: 0, bad: 0, duplicates: 0 })

/**
 * A button source's decoder. Pure (no I/O, no clock) but stateful: framing
 * buffer, repeat detection and, for sources that report raw edges, the
 * gesture detector. One instance per source. `push` never throws.
 *
 * Stream sources (serial, input device, gpiomon) take arbitrary chunks;
 * MQTT sources take one whole message per `push` with its `meta`.
 */
export interface ButtonDecoder {
  push(input: Uint8Array, receivedAt: number, meta?: ButtonInputMeta): ReadonlyArray<ButtonEvent>
  /**
   * Gestures that waited for a hold threshold or a multi-press window and are
   * due by `now`. The caller runs a timer for `nextDeadline()`; sources that
   * report finished gestures never have anything pending.
   */
  flush(now: number): ReadonlyArray<ButtonEvent>
  nextDeadline(): number | undefined
  readonly stats: ButtonDecoderStats
}

/** The one link a button source is read over, as a button's config names it (`mqtt:`, `serial:`, `device:`, `gpio:`). */
export type ButtonLink = "mqtt" | "serial" | "device" | "gpio"

/**
 * A button source is data: its name, its link, its options and a decoder factory, in its folder;
 * `adapters/button-registry.ts` lists it and the config reads its type list and link from there.
 */
export interface ButtonSourceDefinition<Options = unknown> {
  readonly name: string
  readonly description: string
  /** A few words after the name in the config's list of types: "MQTT", "GPIO". */
  readonly summary: string
  /** The link its config entry must give, and no other. */
  readonly link: ButtonLink
  /** A `buttons:` entry for it in YAML, without its name (no indentation): the tests check it passes `scorebridge check`. */
  readonly example: string
  /** Decodes the source-specific `options` block of a button's config. */
  readonly optionsSchema: Schema.Codec<Options, unknown>
  makeDecoder(options: Options & { readonly source: string }): ButtonDecoder
}

/** `flush`/`nextDeadline` for decoders whose source sends finished gestures. */
export const nothingPending = {
  flush: (): ReadonlyArray<ButtonEvent> => [],
  nextDeadline: (): number | undefined => undefined
}
