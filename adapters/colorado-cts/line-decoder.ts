import type { Reading } from "../../src/domain/reading.ts"
import { type Decoder, type DecoderStats, emptyStats } from "../decoder.ts"
import { eventHeat, laneChannels, raceClock } from "./channel-map.ts"
import { channelOf, type Packet, PacketAssembler, type PacketSink } from "./framing.ts"
import { lanePacketProblem } from "./lane-module.ts"
import { Modules } from "./modules.ts"
import { type ColoradoOptions, type FieldName, type FieldPlace, fieldPlaces, isProblem } from "./options.ts"
import { RaceClockModule } from "./race-clock.ts"
import { fieldsOf, raceBoardOf, shownOf } from "./readings.ts"

export interface ColoradoStats extends DecoderStats {
  /** Packets whose content the next packet of their channel did not repeat (a provisional time, noise): never read. */
  unconfirmed: number
  /** Lane packets the console never sends (lane digit of another lane, place 0, an all-zero time …): counted in `badFrames` too, never read. */
  implausible: number
  /** Packets a channel-0 packet interrupted, merged back into one. */
  interrupted: number
}

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

/** When a packet makes a reading: the swimming board on every clock packet and lane or event change; otherwise on a change of what is read. */
const readingRules = (sport: string, places: Partial<Record<FieldName, FieldPlace>>) => {
  const race = sport === "swimming"
  const fieldChannels = new Set(Object.values(places).map((place) => place.channel))
  const scores = places.home !== undefined
  return {
    race,
    scores,
    onClock: race || fieldChannels.has(raceClock.channel),
    watches: (channel: number): boolean =>
      fieldChannels.has(channel) || (race ? laneChannels.has(channel) || channel === eventHeat.channel : !scores)
  }
}

/** The decoder for one port: packets, confirmation by repetition, and readings (see README.md). */
export const makeColoradoDecoder = (options: ColoradoOptions & { readonly sport: string }): Decoder & { readonly stats: ColoradoStats } => {
  const places = fieldPlaces(options)
  // The config loader rejects these with the option named; this only guards direct callers.
  if (isProblem(places)) throw new RangeError(`colorado-cts options.${places.path.join(".")}: ${places.issue}`)
  const stats: ColoradoStats = { ...emptyStats(), unconfirmed: 0, implausible: 0, interrupted: 0 }
  const assembler = new PacketAssembler(stats)
  const modules = new Modules(stats)
  const clock = new RaceClockModule()
  const rules = readingRules(options.sport, places)
  let readings: Array<Reading> = []

  const emit = (receivedAt: number) => {
    const reading: Draft = { receivedAt }
    const face = rules.race ? clock.face() : undefined
    if (face?.text !== undefined) reading.clock = face.text
    if (rules.race) reading.race = raceBoardOf(modules, face)
    fieldsOf(modules, clock, places, reading)
    if (!rules.race && !rules.scores) reading.shown = shownOf(modules)
    readings.push(reading)
  }

  const onClock = (packet: Packet) => {
    if (!clock.apply(packet)) {
      stats.badFrames++
      return
    }
    stats.frames++
    if (rules.onClock) emit(packet.startedAt)
  }

  const sink: PacketSink = {
    packet(packet) {
      if (packet.channel === raceClock.channel && !packet.format) return onClock(packet)
      const lane = rules.race && !packet.format ? laneChannels.get(packet.channel) : undefined
      if (lane !== undefined && lanePacketProblem(packet, lane) !== undefined) {
        stats.implausible++
        stats.badFrames++
        modules.drop(packet.channel, false)
        return
      }
      stats.frames++
      if (modules.offer(packet) && rules.watches(packet.channel)) emit(packet.startedAt)
    },
    malformed(address) {
      stats.badFrames++
      modules.drop(channelOf(address), (address & 1) === 1)
    }
  }

  return {
    stats,
    push(chunk, receivedAt) {
      assembler.push(chunk, receivedAt, sink)
      const out = readings
      readings = []
      return out
    }
  }
}
