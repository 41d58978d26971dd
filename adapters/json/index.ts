import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { apiSports } from "../shared/api-sports.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { defaultMaxLineBytes, makeLineSplitter } from "../shared/line-splitter.ts"
import { ReadingBatch } from "../shared/reading-batch.ts"
import { readingFromFields } from "../shared/reading-fields.ts"
import { compilePath, parseDocument, valueAt } from "./document.ts"
import { configuredFields, type JsonOptions, optionsSchema } from "./options.ts"

export type { JsonOptions } from "./options.ts"

/** JSON score documents: newline-delimited on a serial line, or one per MQTT message. */
export const json: ProtocolDefinition<JsonOptions> = {
  name: "json",
  description: "JSON score documents (newline-delimited on serial, or one per MQTT message), read by configured paths",
  summary: "JSON payloads",
  maker: "Other",
  model: "JSON documents (custom bridge, MQTT)",
  wiring: "Any program or device that sends one JSON document per line (serial, 9600 8N1 unless it says otherwise; TCP, UDP) "
    + "or per MQTT message. Which path holds the home score, the guest score and the period is set in the options (fields).",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "full",
  sports: apiSports,
  optionsSchema,
  example: [
    "protocol: json",
    "mqtt:",
    "  topics: [clubhouse/court-3/score]",
    "options:",
    "  framing: message",
    "  fields: { homePoints: score.home, awayPoints: score.away, sets: games, serve: server }"
  ].join("\n"),
  makeDecoder(options): Decoder {
    const stats = emptyStats()
    const maxBytes = options.maxFrameBytes ?? defaultMaxLineBytes
    const paths = new Map(configuredFields(options.fields).map(([name, path]) => [name, compilePath(path)]))
    const configured = new Set(paths.keys())

    const batch = new ReadingBatch()
    const read = (text: string, receivedAt: number) =>
      batch.read(stats, () => {
        const document = parseDocument(text)
        if (document === undefined) throw new MalformedFrame("not JSON")
        return readingFromFields(configured, (field) => valueAt(document, paths.get(field)!), receivedAt)
      })

    if (options.framing === "message") {
      const text = new TextDecoder("utf-8")
      return {
        stats,
        push(chunk, receivedAt) {
          if (chunk.length > maxBytes) {
            stats.overlong++
            return batch.take()
          }
          const document = text.decode(chunk)
          // An empty payload is how a retained topic gets cleared, not a bad frame.
          if (document.trim() !== "") read(document, receivedAt)
          return batch.take()
        }
      }
    }

    const splitter = makeLineSplitter({ maxLineBytes: maxBytes, onOverlong: () => stats.overlong++ })
    return {
      stats,
      push(chunk, receivedAt) {
        for (const line of splitter.push(chunk)) read(line, receivedAt)
        return batch.take()
      }
    }
  }
}
