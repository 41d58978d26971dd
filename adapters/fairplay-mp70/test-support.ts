import { expect } from "vitest"
import { ascii } from "../../scripts/support/bytes.ts"
import { concat, seededRandom } from "../shared/seeded-random.ts"
import type { Decoder } from "../decoder.ts"
import { clockPacket, type PacketLayout, statePacket } from "./encode.ts"
import { fairplayMp70 } from "./index.ts"
import type { FairPlayOptions } from "./options.ts"

export { concat, seededRandom }

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport = "hockey", options: FairPlayOptions & { readonly maxFrameBytes?: number } = {}): Decoder =>
  fairplayMp70.makeDecoder({ sport, ...options })

export const STX = "\u0002"
const ETX = "\u0003"

/** A packet's text laid out by position, checked against the notes' offsets as it is built (the ETX is added). */
export const laidOut = (segments: ReadonlyArray<readonly [number, string]>, length: number): Uint8Array => {
  let text = ""
  for (const [at, part] of segments) {
    expect(text.length, `segment ${JSON.stringify(part)} starts at ${at}`).toBe(at)
    text += part
  }
  expect(text.length + 1).toBe(length)
  return ascii(text + ETX)
}

/** A copy of `packet` with `text` written at each position. */
export const withBytes = (packet: Uint8Array, changes: Readonly<Record<number, string>>): Uint8Array => {
  const copy = packet.slice()
  for (const [at, text] of Object.entries(changes)) copy.set(ascii(text), Number(at))
  return copy
}

const clockOf = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`

/**
 * A stretch of a hockey game as the console sends it. Rink layout (default):
 * two or three C packets (clock, period) per H packet (scores, penalties), the
 * H packet first when the score changes, last when the period does; ProLine: a C packet every step, an H
 * packet (scores, period) on a change and every fourth step. Returns the bytes,
 * the packets, and the score each H packet shows, in order.
 */
export const gameStream = (seed: number, steps = 120, layout: PacketLayout = {}) => {
  const random = seededRandom(seed)
  const proline = layout.variant === "proline"
  let home = 0
  let away = 0
  let period = 1
  let seconds = 1200
  let penalty: number | undefined
  const packets: Array<Uint8Array> = []
  const states: Array<{ home: number; away: number; period: number }> = []
  for (let step = 0; step < steps; step++) {
    const elapsed = random.int(1, 20)
    seconds = Math.max(0, seconds - elapsed)
    penalty = penalty === undefined || penalty <= elapsed ? undefined : penalty - elapsed
    let changed: "score" | "period" | undefined = step === 0 ? "score" : undefined
    if (seconds === 0 && period < 3) {
      period++
      seconds = 1200
      changed = "period"
    } else if (random.next() < 0.08) {
      if (random.next() < 0.5) home++
      else away++
      changed = "score"
    } else if (penalty === undefined && random.next() < 0.1) {
      penalty = random.next() < 0.5 ? 120 : 300
    }
    const penalties = penalty === undefined ? {} : { away: [{ player: 7, remaining: clockOf(penalty) }] }
    const state = statePacket({ home, away, period, penalties }, layout)
    const clock = clockPacket({ clock: clockOf(seconds), period }, layout)
    if (proline) {
      if (changed !== undefined || step % 4 === 0) {
        packets.push(state)
        states.push({ home, away, period })
      }
      packets.push(clock)
    } else {
      const clocks = Array.from({ length: random.int(2, 3) }, () => clock)
      // A new score shows first in the H packet; a new period in the C packets.
      packets.push(...(changed === "score" ? [state, ...clocks] : [...clocks, state]))
      states.push({ home, away, period })
    }
  }
  return { bytes: concat(...packets), packets, states }
}

export type Effect = "same" | "bad" | "home" | "away" | "period" | "clock" | "penalties"

/**
 * What writing `byte` at each position of `packet` does to the reading a fresh
 * decoder makes of it (after `before`, e.g. a C packet that gave the period):
 * the one field that changed, `bad` (dropped), or `same`.
 */
export const positionEffects = (
  decoder: () => Decoder,
  packet: Uint8Array,
  positions: Iterable<number>,
  byte = "1",
  before: Uint8Array = new Uint8Array(0)
): Record<number, Effect> => {
  const readingOf = (bytes: Uint8Array) => {
    const d = decoder()
    d.push(before, 0)
    const [reading, ...more] = d.push(bytes, 1)
    if (more.length > 0) throw new Error("one packet made several readings")
    return reading
  }
  const { receivedAt: _, ...base } = readingOf(packet)!
  const effects: Record<number, Effect> = {}
  for (const at of positions) {
    const reading = readingOf(withBytes(packet, { [at]: byte }))
    if (reading === undefined) {
      effects[at] = "bad"
      continue
    }
    const changed = (["home", "away", "period", "clock", "penalties"] as const).filter((key) => JSON.stringify(reading[key]) !== JSON.stringify(base[key]))
    if (changed.length > 1) throw new Error(`byte ${at} changed ${changed.join(" and ")}`)
    effects[at] = changed[0] ?? "same"
  }
  return effects
}

/** `{ 2: e, 3: e, … }` from runs: `[[2, 10, "same"], [11, 11, "bad"]]`. */
export const effectRuns = (runs: ReadonlyArray<readonly [number, number, Effect]>): Record<number, Effect> =>
  Object.fromEntries(runs.flatMap(([from, to, effect]) => Array.from({ length: to - from + 1 }, (_, i) => [from + i, effect] as const)))
