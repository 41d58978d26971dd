import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { apiSports } from "../shared/api-sports.ts"
import { makeLineSplitter } from "../shared/line-splitter.ts"
import { ReadingBatch } from "../shared/reading-batch.ts"
import { linesLearning } from "./learn.ts"
import { makeLineReader } from "./line-reader.ts"
import { type LinesOptions, optionsSchema } from "./options.ts"

export type { LinesOptions } from "./options.ts"

/** Generic text lines from DIY or undocumented controllers, read with a configured pattern or column list. */
export const lines: ProtocolDefinition<LinesOptions> = {
  name: "lines",
  description: "Generic text lines (one score per line), read with a configured pattern or delimited columns",
  summary: "text lines, regex or delimiter",
  maker: "Other",
  model: "Line protocol (microcontroller, custom)",
  wiring: "Any controller that writes one line of text per state (an Arduino, a PLC, a custom program): over USB serial "
    + "(9600 8N1 unless it says otherwise, e.g. 115200), or TCP or UDP. Which column or pattern holds what is set in the options: "
    + "the layout finder works it out from a few moments noted off the board.",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "full",
  sports: apiSports,
  optionsSchema,
  example: [
    "protocol: lines",
    "serial:",
    "  path: /dev/serial/by-id/usb-Arduino__www.arduino.cc__0043_75833353035351F0E1A1-if00",
    "  baudRate: 115200",
    "options:",
    "  delimiter: \",\"",
    "  fields: [home, away, period]"
  ].join("\n"),
  // Only learn: which columns hold what, only the technician can say (sniff guesses text, see text-guess.ts).
  learn: linesLearning,
  makeDecoder(options): Decoder {
    const stats = emptyStats()
    const read = makeLineReader(options)
    const splitter = makeLineSplitter({ maxLineBytes: options.maxFrameBytes, onOverlong: () => stats.overlong++ })
    const batch = new ReadingBatch()
    return {
      stats,
      push(chunk, receivedAt) {
        for (const line of splitter.push(chunk)) batch.read(stats, () => read(line, receivedAt))
        return batch.take()
      }
    }
  }
}
