import { ascii } from "../../scripts/support/bytes.ts"
import type { Decoder } from "../decoder.ts"
import { concat, seededRandom } from "../shared/seeded-random.ts"
import { frame } from "./encode.ts"
import { stramatel452m } from "./index.ts"
import type { StramatelOptions } from "./options.ts"

export { concat, seededRandom }

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport: string, options: StramatelOptions & { readonly maxFrameBytes?: number } = {}): Decoder =>
  stramatel452m.makeDecoder({ sport, ...options })

/** A copy of `bytes` with `text` written at each offset. */
export const withBytes = (bytes: Uint8Array, changes: Readonly<Record<number, string>>): Uint8Array => {
  const copy = bytes.slice()
  for (const [at, text] of Object.entries(changes)) copy.set(ascii(text), Number(at))
  return copy
}

/**
 * A frame written byte by byte from the protocol note's tables, apart from the
 * encoder: all blank but `0xF8`, the code and `0x0D`, then `changes`.
 */
export const rawFrame = (code: number, changes: Readonly<Record<number, string>> = {}): Uint8Array => {
  const bytes = new Uint8Array(54).fill(0x20)
  bytes[0] = 0xf8
  bytes[1] = code
  bytes[53] = 0x0d
  return withBytes(bytes, changes)
}

/** Fields of one reading without its time. */
export const shown = (decoder: Decoder, bytes: Uint8Array) => decoder.push(bytes, 0).map(({ receivedAt: _, ...fields }) => fields)

/**
 * A stretch of a hockey game as a console sends it on its bus: the whole state
 * every step (penalty clocks running down, a goal now and then, periods), with
 * individual-points frames (0x38, 0x37) and a names frame (0x77) between.
 * Returns the bytes, and the score and offset of each main frame in order.
 */
export const hockeyStream = (seed: number, steps = 120) => {
  const random = seededRandom(seed)
  let home = 0
  let away = 0
  let period = 1
  let seconds = 1200
  let penalty = 0
  const parts: Array<Uint8Array> = []
  const scores: Array<readonly [number, number, number]> = []
  const starts: Array<number> = []
  let length = 0
  const add = (part: Uint8Array) => {
    parts.push(part)
    length += part.length
  }
  for (let step = 0; step < steps; step++) {
    seconds = Math.max(0, seconds - random.int(1, 20))
    if (seconds === 0 && period < 3) {
      period++
      seconds = 1200
    } else if (random.next() < 0.08) {
      if (random.next() < 0.5) home++
      else away++
    }
    penalty = penalty > 0 ? penalty - 1 : random.next() < 0.1 ? 120 : 0
    const running = penalty > 0 ? `${Math.floor(penalty / 60)}:${String(penalty % 60).padStart(2, "0")}` : undefined
    const clock = `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`
    starts.push(length)
    add(frame(0x35, { home, away, period, clock, timeouts: [0, 1], penalties: { home: [running], away: [undefined, running] } }))
    scores.push([home, away, period])
    if (step % 3 === 0) add(rawFrame(0x38, { 4: clock.replace(":", ""), 22: "0102030405" }))
    if (step % 7 === 0) add(rawFrame(0x77, { 2: "HOME TEAM" }))
  }
  return { bytes: concat(...parts), scores, starts }
}
