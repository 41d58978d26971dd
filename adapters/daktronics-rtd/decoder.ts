import type { Reading } from "../../src/domain/reading.ts"
import { emptyStats, type Decoder, type DecoderStats } from "../decoder.ts"
import { RtdBuffer } from "./buffer.ts"
import { hasValidChecksum } from "./checksum.ts"
import { FieldReader } from "./fields.ts"
import { defaultMaxFrameBytes, FrameSplitter } from "./framing.ts"
import { parseMessage } from "./message.ts"
import type { DaktronicsOptions } from "./options.ts"
import { sportLayout, type SportReading } from "./sports.ts"

export interface DaktronicsStats extends DecoderStats {
  /** Valid frames of another type than `004210` (no buffer data); not in `frames`. */
  nonDataFrames: number
  /** Readings in which a field held text that is not a number (often a wrong `sport` setting). */
  garbledReadings: number
}

export type DaktronicsDecoderOptions = DaktronicsOptions & { readonly sport: string; readonly maxFrameBytes?: number }

/** Keeps logs and equality checks free of `key: undefined`. */
const withoutAbsent = (reading: SportReading): SportReading =>
  Object.fromEntries(Object.entries(reading).filter(([, value]) => value !== undefined))

/**
 * frame → checksum → header → RTD buffer → the sport's fields → Reading.
 * A reading is the whole current state; one is emitted for every data frame
 * that changes the buffer, but only once the score fields have been written.
 */
export const makeDaktronicsDecoder = (options: DaktronicsDecoderOptions): Decoder & { readonly stats: DaktronicsStats } => {
  const stats: DaktronicsStats = { ...emptyStats(), nonDataFrames: 0, garbledReadings: 0 }
  const splitter = new FrameSplitter(options.maxFrameBytes ?? defaultMaxFrameBytes, stats)
  const buffer = new RtdBuffer()
  const layout = sportLayout(options.sport, options)
  let scoreKnown = false

  const readingFor = (receivedAt: number): Reading => {
    const fields = new FieldReader(buffer)
    const reading = withoutAbsent(layout.read(fields))
    if (fields.garbled) stats.garbledReadings++
    return { receivedAt, ...reading }
  }

  const decodeFrame = (body: Uint8Array, receivedAt: number): Reading | undefined => {
    if (!hasValidChecksum(body)) {
      stats.badFrames++
      return undefined
    }
    const message = parseMessage(body)
    if (message._tag === "malformed") {
      stats.badFrames++
      return undefined
    }
    if (message._tag === "other") {
      stats.nonDataFrames++
      return undefined
    }
    stats.frames++
    const changed = buffer.apply(message.offset, message.data)
    if (!scoreKnown) {
      scoreKnown = layout.scoreFields.every((field) => buffer.isWritten(field.offset, field.length))
      return scoreKnown ? readingFor(receivedAt) : undefined
    }
    return changed ? readingFor(receivedAt) : undefined
  }

  return {
    stats,
    push(chunk, receivedAt) {
      const readings: Array<Reading> = []
      for (const { body, startedAt } of splitter.push(chunk, receivedAt)) {
        const reading = decodeFrame(body, startedAt)
        if (reading !== undefined) readings.push(reading)
      }
      return readings
    }
  }
}
