import type { ReceivedChunk } from "../../src/domain/received.ts"
import { concat, seededRandom } from "../shared/seeded-random.ts"
import { addressByte, digitByte, type DigitValue, digitPacket, digitsOf, formatPacket } from "./encode.ts"
import { type ColoradoOptions, coloradoCts, type ColoradoStats } from "./index.ts"
import type { Decoder } from "../decoder.ts"

export { concat, seededRandom }

/** Decoders are found through the public definition, as the bridge finds them. */
export const decoderFor = (sport = "swimming", options: ColoradoOptions = {}) =>
  coloradoCts.makeDecoder({ sport, ...options }) as Decoder & { readonly stats: ColoradoStats }

export const bytes = (...parts: ReadonlyArray<ReadonlyArray<number>>): Uint8Array => Uint8Array.from(parts.flat())

/** A packet of channel 0 carrying the clock's text at positions 2–7 ("  1025 " style: minutes, seconds, tenths, hundredths). */
export const clockPacket = (text: string): Array<number> => digitPacket(0, digitsOf(text).slice(2), { positions: [2, 3, 4, 5, 6, 7] })

/** A tenths-only clock packet (positions 6 and 7), as the console sends between whole seconds. */
export const tenthsPacket = (tenths: number): Array<number> => digitPacket(0, [tenths, null], { positions: [6, 7] })

/** "0.0" (reset), as the module shows it. */
export const resetClock = "     00 "

/** A lane channel's digit packet: `text` is the module ("1 2891" → lane 1, no place, 28.91), or running with two digits. */
export const lanePacket = (channel: number, text: string, running = false): Array<number> =>
  running ? digitPacket(channel, digitsOf(text).slice(0, 2), { running: true }) : digitPacket(channel, digitsOf(text))

/** The same packet twice in a row: what the console sends while nothing changes. */
export const twice = (packet: ReadonlyArray<number>): Array<number> => [...packet, ...packet]

/** A lane channel's format packet with flag 4 on every digit: the console's blank mode. */
export const blankedFormat = (channel: number): Array<number> => formatPacket(channel, Array.from({ length: 8 }, () => 4))

/** A packet of `channel` cut after `after` digits by a clock packet, then its address again and the rest, as the console interrupts. */
export const interrupted = (packet: ReadonlyArray<number>, after: number, clock: ReadonlyArray<number>): Array<number> => [
  ...packet.slice(0, 1 + after),
  ...clock,
  packet[0]!,
  ...packet.slice(1 + after)
]

export { addressByte, digitByte, digitPacket, digitsOf, formatPacket }
export type { DigitValue }

// ——— A race on the wire, for the stream-level tests (a small console model of our own: the tests must not lean on M's). ———

export interface SwimLane {
  readonly lane: number
  /** Touch, ms after the horn; absent: no finish. */
  readonly finishMs?: number
  /** The first stopped packet is provisional (30 ms lower, no place) and sent once. */
  readonly provisional?: boolean
}

export interface SwimScript {
  readonly event: number
  readonly heat: number
  /** The horn, ms from the stream's start. */
  readonly startMs: number
  /** The operator resets the clock, ms from the stream's start. */
  readonly resetMs: number
  readonly durationMs: number
  readonly lanes: ReadonlyArray<SwimLane>
}

/** The line's rate: 9600 baud, eleven-bit characters. */
export const bytesPerSecond = 9600 / 11

const pad = (n: number, width: number) => String(n).padStart(width, " ")

/** The clock module as shown at `ms` after the horn: blank-padded minutes and seconds, tenths; ".t" in the first second. */
export const clockText = (ms: number): string => {
  const tenths = Math.floor(ms / 100)
  const minutes = Math.floor(tenths / 600)
  const seconds = Math.floor(tenths / 10) % 60
  const secondsText = minutes > 0 ? String(seconds).padStart(2, "0") : seconds === 0 ? "  " : pad(seconds, 2)
  return `  ${minutes > 0 ? pad(minutes, 2) : "  "}${secondsText}${tenths % 10} `
}

/** A time as the lane shows it, from ms (hundredths): "2891" in d4–7, minutes in d2–3. */
const laneTimeText = (ms: number): string => {
  const hundredths = Math.floor(ms / 10)
  const minutes = Math.floor(hundredths / 6000)
  const seconds = Math.floor(hundredths / 100) % 60
  return `${minutes > 0 ? pad(minutes, 2) : "  "}${minutes > 0 ? String(seconds).padStart(2, "0") : pad(seconds, 2)}${String(hundredths % 100).padStart(2, "0")}`
}

/** "28.91" / "1:02.34", as the decoder should read the lane. */
export const timeText = (ms: number): string => {
  const text = laneTimeText(ms)
  const minutes = text.slice(0, 2).trim()
  return `${minutes === "" ? text.slice(2, 4).trim() : `${minutes}:${text.slice(2, 4)}`}.${text.slice(4)}`
}

export interface Settled {
  readonly lane: number
  readonly place: number
  readonly timeMs: number
  readonly time: string
}

/** The settled results of a script: places by touch. */
export const settledOf = (script: SwimScript): ReadonlyArray<Settled> =>
  script.lanes
    .filter((l) => l.finishMs !== undefined)
    .sort((a, b) => a.finishMs! - b.finishMs!)
    .map((l, i) => ({ lane: l.lane, place: i + 1, timeMs: Math.floor(l.finishMs! / 10) * 10, time: timeText(l.finishMs!) }))

/** What a lane's module shows at `t` (ms from stream start): its digits and whether it runs. */
const laneModule = (script: SwimScript, lane: SwimLane, t: number, provisionalSent: Set<number>) => {
  const settled = settledOf(script).find((s) => s.lane === lane.lane)
  const sinceStart = t - script.startMs
  if (sinceStart < 500) return { text: `${lane.lane % 10}`, running: false }
  const shownAt = lane.finishMs === undefined ? Infinity : lane.finishMs + 400
  if (settled === undefined || sinceStart < shownAt) return { text: `${lane.lane % 10}${sinceStart < 1300 ? "9" : " "}`, running: true }
  if (lane.provisional === true && !provisionalSent.has(lane.lane)) {
    provisionalSent.add(lane.lane)
    return { text: `${lane.lane % 10} ${laneTimeText(settled.timeMs - 30)}`, running: false }
  }
  return { text: `${lane.lane % 10}${settled.place}${laneTimeText(settled.timeMs)}`, running: false }
}

const laneChannel = (lane: number) => (lane <= 10 ? lane : lane + 12)

/** The console's cycle: channels 1…15, 1…15, 1…30, each as a digit packet then a format packet. */
const cycle = [...Array.from({ length: 15 }, (_, i) => i + 1), ...Array.from({ length: 15 }, (_, i) => i + 1), ...Array.from({ length: 30 }, (_, i) => i + 1)]

/** One channel's two packets at `t`. */
const channelPackets = (script: SwimScript, channel: number, t: number, provisionalSent: Set<number>): Array<Array<number>> => {
  const lane = script.lanes.find((l) => laneChannel(l.lane) === channel)
  if (lane !== undefined) {
    const shown = laneModule(script, lane, t, provisionalSent)
    const resetFlag = t < script.startMs || t >= script.resetMs ? 2 : 0
    return [lanePacket(channel, shown.text, shown.running), formatPacket(channel, [resetFlag, 0, 0, 0, 2, 2, 0, 0], { running: shown.running })]
  }
  const text = channel === 12 ? `${pad(script.event, 3)}  ${pad(script.heat, 3)}` : channel === 13 ? "  0 0  0" : ""
  return [digitPacket(channel, digitsOf(text)), formatPacket(channel, [0, 0, 0, 0, 0, 0, 0, 0])]
}

/** The clock packet due at `t`: the whole clock when the second changed since `lastSecond`, the tenths between. */
const clockAt = (script: SwimScript, t: number, lastSecond: number | undefined): Array<number> => {
  if (t < script.startMs || t >= script.resetMs) return clockPacket(resetClock)
  const ms = t - script.startMs
  return Math.floor(ms / 1000) !== lastSecond ? clockPacket(clockText(ms)) : tenthsPacket(Math.floor(ms / 100) % 10)
}

/**
 * A race on the wire, `durationMs` long, continuous at 9600 8E1: the cycle above, a clock packet every
 * 87 bytes — inside the packet being sent when `interrupt` (its address again and the rest after it),
 * else between packets. Chunks of 1–64 bytes, each stamped when its last byte arrived.
 */
export const swimStream = (script: SwimScript, options: { readonly interrupt?: boolean; readonly seed?: number; readonly epochMs?: number } = {}) => {
  const out: Array<number> = []
  const provisionalSent = new Set<number>()
  const timeOf = (index: number) => (index * 1000) / bytesPerSecond
  let nextClock = 0
  let lastSecond: number | undefined
  const clockDue = () => out.length >= nextClock
  const sendClock = () => {
    const t = timeOf(out.length)
    out.push(...clockAt(script, t, lastSecond))
    lastSecond = t < script.startMs || t >= script.resetMs ? undefined : Math.floor((t - script.startMs) / 1000)
    nextClock = out.length + 87
  }
  for (let c = 0; timeOf(out.length) < script.durationMs; c = (c + 1) % cycle.length) {
    for (const packet of channelPackets(script, cycle[c]!, timeOf(out.length), provisionalSent)) {
      if (clockDue()) sendClock()
      out.push(packet[0]!)
      for (let i = 1; i < packet.length; i++) {
        if (options.interrupt !== false && clockDue()) {
          sendClock()
          out.push(packet[0]!)
        }
        out.push(packet[i]!)
      }
    }
  }
  const stream = Uint8Array.from(out)
  const random = seededRandom(options.seed ?? 1)
  const epoch = options.epochMs ?? 1_700_000_000_000
  let at = 0
  const chunks: Array<ReceivedChunk> = random.chunks(stream, 64).map((piece) => {
    at += piece.length
    return { bytes: piece, receivedAt: epoch + Math.round(timeOf(at)) }
  })
  return { bytes: stream, chunks, settled: settledOf(script), timeOf }
}

/** A short race: six lanes, three finishes with a provisional first packet, lane 6 off (never finishes). */
export const shortRace: SwimScript = {
  event: 12,
  heat: 3,
  startMs: 2_000,
  resetMs: 40_000,
  durationMs: 45_000,
  lanes: [
    { lane: 1, finishMs: 30_120, provisional: true },
    { lane: 2, finishMs: 28_910 },
    { lane: 3, finishMs: 29_450, provisional: true },
    { lane: 4, finishMs: 31_000 },
    { lane: 5, finishMs: 33_330, provisional: true },
    { lane: 6 }
  ]
}
