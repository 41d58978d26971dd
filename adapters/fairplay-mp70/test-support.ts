import { concat, seededRandom } from "../shared/seeded-random.ts"
import type { Decoder } from "../decoder.ts"
import { clockPacket, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import type { FairPlayOptions } from "./options.ts"

export { concat, seededRandom }

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport = "hockey", options: FairPlayOptions & { readonly maxFrameBytes?: number } = {}): Decoder =>
  fairplayMp70.makeDecoder({ sport, ...options })

export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0))

/** A copy of `packet` with `text` written at each position. */
export const withBytes = (packet: Uint8Array, changes: Readonly<Record<number, string>>): Uint8Array => {
  const copy = packet.slice()
  for (const [at, text] of Object.entries(changes)) copy.set(ascii(text), Number(at))
  return copy
}

/**
 * A stretch of a hockey game as the console sends it: clock packets every
 * step, a state packet when the score or period changes and every fourth step
 * regardless. Returns the bytes and the state packets' contents in order.
 */
export const gameStream = (seed: number, steps = 120) => {
  const random = seededRandom(seed)
  let home = 0
  let away = 0
  let period = 1
  let seconds = 1200
  const packets: Array<Uint8Array> = []
  const states: Array<{ home: number; away: number; period: number }> = []
  for (let step = 0; step < steps; step++) {
    seconds = Math.max(0, seconds - random.int(1, 20))
    let changed = step === 0
    if (seconds === 0 && period < 3) {
      period++
      seconds = 1200
      changed = true
    } else if (random.next() < 0.08) {
      if (random.next() < 0.5) home++
      else away++
      changed = true
    }
    if (changed || step % 4 === 0) {
      packets.push(statePacket({ home, away, period }))
      states.push({ home, away, period })
    }
    packets.push(clockPacket(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`))
  }
  return { bytes: concat(...packets), packets, states }
}
