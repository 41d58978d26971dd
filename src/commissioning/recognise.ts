import { Result, Schema } from "effect"
import { protocols } from "../../adapters/registry.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"

/**
 * Sports worth trying per protocol when the stream does not name its sport.
 * Daktronics RTD reads every sport from the same buffer, so only layouts
 * that differ are tried; protocols not listed try every sport they know.
 */
export const sniffSports: Readonly<Record<string, ReadonlyArray<string>>> = {
  "daktronics-rtd": ["basketball", "volleyball", "tennis", "football"]
}

export interface SportResult {
  readonly sport: string
  readonly frames: number
  readonly badFrames: number
  readonly readings: number
  /** Readings with a field that was not a number: the sport's layout does not fit. */
  readonly garbled: number
  readonly sample?: Reading
}

export interface ProtocolResult {
  readonly protocol: string
  /** Sports whose layout read the bytes into readings, none garbled; best first. */
  readonly sports: ReadonlyArray<SportResult>
  /** Over every sport tried: the most frames decoded and the bad frames seen with them. */
  readonly frames: number
  readonly badFrames: number
}

// Opening a port mid-stream cuts one frame; a line at the wrong speed yields many bad ones.
const maxBadShare = 0.1

const decodeAs = (protocol: string, sport: string, chunks: ReadonlyArray<ReceivedChunk>): SportResult => {
  const decoder = protocols[protocol]!.makeDecoder({ sport })
  let readings = 0
  let sample: Reading | undefined
  for (const chunk of chunks) {
    const out = decoder.push(chunk.bytes, chunk.receivedAt)
    readings += out.length
    sample = out.at(-1) ?? sample
  }
  const { frames, badFrames } = decoder.stats
  const garbled = (decoder.stats as { garbledReadings?: number }).garbledReadings ?? 0
  return { sport, frames, badFrames, readings, garbled, ...(sample === undefined ? {} : { sample }) }
}

/** Protocols that decode with no options at all; the others (lines, json) need a field map first. */
export const optionFreeProtocols = (): ReadonlyArray<string> =>
  Object.values(protocols)
    .filter((definition) => Result.isSuccess(Schema.decodeUnknownResult(definition.optionsSchema)({})))
    .map((definition) => definition.name)

/** Feeds the bytes to every option-free decoder, for each sport worth trying. */
export const decodeWithEveryProtocol = (chunks: ReadonlyArray<ReceivedChunk>): ReadonlyArray<ProtocolResult> =>
  optionFreeProtocols().map((protocol) => {
    const tried = (sniffSports[protocol] ?? protocols[protocol]!.sports).map((sport) => decodeAs(protocol, sport, chunks))
    const best = tried.reduce((a, b) => (b.frames > a.frames ? b : a))
    const sports = tried
      .filter((s) => s.readings > 0 && s.garbled === 0)
      .sort((a, b) => b.readings - a.readings || b.frames - a.frames)
    return { protocol, sports, frames: best.frames, badFrames: best.badFrames }
  })

/** Decoded into readings with hardly any bad frames: the line speed and protocol are right. */
export const isClean = (result: ProtocolResult): boolean =>
  result.sports.length > 0 && result.frames > 0 && result.badFrames <= result.frames * maxBadShare
