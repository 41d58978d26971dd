import { hex } from "../../scripts/support/bytes.ts"
import type { Decoder } from "../decoder.ts"
import { concat, seededRandom } from "../shared/seeded-random.ts"
import { message11, penalties } from "./encode.ts"
import { type BodetOptions, bodetScorepad, type BodetStats } from "./index.ts"

export { concat, seededRandom }

/** The protocol note's example: clock 1:34, 0–0, period 1, LRC 0x2b. */
export const docFrame = hex("01 7f 02 47 31 31 82 37 20 31 33 34 20 30 30 20 30 30 31 03 2b")

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport = "unihockey", options: Partial<BodetOptions> & { maxFrameBytes?: number } = {}) =>
  bodetScorepad.makeDecoder({ sport, ...options }) as Decoder & { readonly stats: BodetStats }

/** A copy of `bytes` with `changes` (offset → byte) applied. */
export const withBytes = (bytes: Uint8Array, changes: Readonly<Record<number, number>>): Uint8Array => {
  const copy = bytes.slice()
  for (const [at, byte] of Object.entries(changes)) copy[Number(at)] = byte
  return copy
}

/**
 * What a console streams: per state, message 11 between the penalty messages,
 * each state's score unique (home = i, away = 2i mod 1000) so a reading tells
 * which frame it came from.
 */
export const consoleStream = (states: number, period: number | string = 1) => {
  const frames = Array.from({ length: states }, (_, i) =>
    message11({ clock: `${i % 20}:${String(i % 60).padStart(2, "0")}`, home: i, away: (2 * i) % 1000, period })
  )
  const bytes = concat(...frames.flatMap((f) => [penalties("12", [{ left: "2:00", running: true }]), f, penalties("13", [])]))
  return { frames, bytes }
}
