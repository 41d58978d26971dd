import { readFileSync } from "node:fs"
import { concat, seededRandom as sharedRandom } from "../shared/seeded-random.ts"
import { daktronicsRtd } from "./index.ts"
import type { DaktronicsStats } from "./decoder.ts"
import type { Decoder } from "../decoder.ts"
import type { DaktronicsOptions } from "./options.ts"

export const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`fixtures/${name}`, import.meta.url)))

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport: string, options: DaktronicsOptions & { maxFrameBytes?: number } = {}): Decoder =>
  daktronicsRtd.makeDecoder({ sport, ...options })

/** The protocol-specific counters (the Decoder contract types only the common ones). */
export const statsOf = (decoder: Decoder): DaktronicsStats => decoder.stats as DaktronicsStats

export { concat }

/** Deterministic random numbers in [0, 1), so a failing random case can be replayed from its seed. */
export const seededRandom = (seed: number): (() => number) => sharedRandom(seed).next

export const randomInt = (random: () => number, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1))

/** Feeds `bytes` in random-sized chunks (1 … maxChunk), all stamped `receivedAt`. */
export const pushInChunks = (decoder: Decoder, bytes: Uint8Array, random: () => number, maxChunk: number, receivedAt = 1) => {
  const readings = []
  for (let at = 0; at < bytes.length;) {
    const size = randomInt(random, 1, maxChunk)
    readings.push(...decoder.push(bytes.subarray(at, at + size), receivedAt))
    at += size
  }
  return readings
}
