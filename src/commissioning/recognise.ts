import type { ProtocolVariant } from "../../adapters/decoder.ts"
import { protocols } from "../../adapters/registry.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"

export interface SportResult {
  readonly sport: string
  readonly frames: number
  readonly badFrames: number
  readonly readings: number
  /** Readings with a field that was not a number: the sport's layout does not fit. */
  readonly garbled: number
  readonly sample?: Reading
  /** The sports that read the same frames (one console code for all), in the console's words, when there are such. */
  readonly family?: { readonly words: string; readonly sports: ReadonlyArray<string> }
}

export interface ProtocolResult {
  readonly protocol: string
  /** Sports whose layout read the bytes into readings, none garbled; best first. */
  readonly sports: ReadonlyArray<SportResult>
  /** Over every sport tried: the most frames decoded and the bad frames seen with them. */
  readonly frames: number
  readonly badFrames: number
  /** Of a protocol whose consoles come in layouts the wire tells apart (`Recognition.variants`): the one that read best. */
  readonly variant?: ProtocolVariant
}

// Opening a port mid-stream cuts one frame; a line at the wrong speed yields many bad ones.
const maxBadShare = 0.1

const decodeAs = (protocol: string, sport: string, chunks: ReadonlyArray<ReceivedChunk>, options: ProtocolVariant["options"] = {}): SportResult => {
  const definition = protocols[protocol]!
  const decoder = definition.makeDecoder({ ...options, sport })
  const family = definition.recognise?.sportFamilies?.find((f) => f.sports.includes(sport))
  let readings = 0
  let sample: Reading | undefined
  for (const chunk of chunks) {
    const out = decoder.push(chunk.bytes, chunk.receivedAt)
    readings += out.length
    sample = out.at(-1) ?? sample
  }
  const { frames, badFrames } = decoder.stats
  const garbled = (decoder.stats as { garbledReadings?: number }).garbledReadings ?? 0
  return { sport, frames, badFrames, readings, garbled, ...(sample === undefined ? {} : { sample }), ...(family === undefined ? {} : { family }) }
}

/** Protocols whose definition says how to recognise them (`recognise`); the others (lines, json) need a field map first. */
export const recognisableProtocols = (): ReadonlyArray<string> =>
  Object.values(protocols).filter((definition) => definition.recognise !== undefined).map((definition) => definition.name)

/** The sports the definition names as worth trying, else every sport it knows but only the first of each group that reads alike. */
const sportsToTry = (protocol: string): ReadonlyArray<string> => {
  const { recognise = {}, sports } = protocols[protocol]!
  const { sportFamilies = [] } = recognise
  return recognise.sports ?? sports.filter((sport) => !sportFamilies.some((f) => f.sports.includes(sport) && f.sports[0] !== sport))
}

const decodeVariant = (protocol: string, chunks: ReadonlyArray<ReceivedChunk>, variant?: ProtocolVariant): ProtocolResult => {
  const tried = sportsToTry(protocol).map((sport) => decodeAs(protocol, sport, chunks, variant?.options))
  const best = tried.reduce((a, b) => (b.frames > a.frames ? b : a))
  const sports = tried
    .filter((s) => s.readings > 0 && s.garbled === 0)
    .sort((a, b) => b.readings - a.readings || b.frames - a.frames)
  return { protocol, sports, frames: best.frames, badFrames: best.badFrames, ...(variant === undefined ? {} : { variant }) }
}

/** A clean result first; of two alike, the one with more good frames; of equals, the earlier (the default). */
const readsBetter = (a: ProtocolResult, b: ProtocolResult) =>
  isClean(a) !== isClean(b) ? isClean(a) : a.frames - a.badFrames > b.frames - b.badFrames

/**
 * Feeds the bytes to every recognisable protocol's decoder (or to those named: the ones whose
 * framing the bytes were heard with), in each of its variants, for each sport worth trying.
 */
export const decodeWithEveryProtocol = (
  chunks: ReadonlyArray<ReceivedChunk>,
  names: ReadonlyArray<string> = recognisableProtocols()
): ReadonlyArray<ProtocolResult> =>
  names.map((protocol) => {
    const variants = protocols[protocol]!.recognise?.variants
    if (variants === undefined || variants.length === 0) return decodeVariant(protocol, chunks)
    return variants.map((variant) => decodeVariant(protocol, chunks, variant)).reduce((best, next) => (readsBetter(next, best) ? next : best))
  })

/** Decoded into readings with hardly any bad frames: the line speed and protocol are right. */
export const isClean = (result: ProtocolResult): boolean =>
  result.sports.length > 0 && result.frames > 0 && result.badFrames <= result.frames * maxBadShare
