import type { Reading } from "../../src/domain/reading.ts"
import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { apiSports } from "../shared/api-sports.ts"
import { makeLineSplitter } from "../shared/line-splitter.ts"
import { makeLineReader } from "./line-reader.ts"
import { type LinesOptions, optionsSchema } from "./options.ts"

export type { LinesOptions } from "./options.ts"

/** Generic text lines from DIY or undocumented controllers, read with a configured pattern or column list. */
export const lines: ProtocolDefinition<LinesOptions> = {
  name: "lines",
  description: "Generic text lines (one score per line), read with a configured pattern or delimited columns",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "full",
  sports: apiSports,
  optionsSchema,
  makeDecoder(options): Decoder {
    const stats = emptyStats()
    const read = makeLineReader(options)
    const splitter = makeLineSplitter({ maxLineBytes: options.maxFrameBytes, onOverlong: () => stats.overlong++ })
    return {
      stats,
      push(chunk, receivedAt) {
        const readings: Array<Reading> = []
        for (const line of splitter.push(chunk)) {
          try {
            readings.push(read(line, receivedAt))
            stats.frames++
          } catch {
            stats.badFrames++
          }
        }
        return readings
      }
    }
  }
}
