import { Result, Schema } from "effect"
import type { ReceivedChunk } from "../domain/received.ts"

export interface TextGuess {
  readonly kind: "JSON lines" | "text lines"
  readonly lines: number
  readonly sample: string
}

const JsonObject = Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown))
const isJsonObject = (line: string) => Result.isSuccess(Schema.decodeUnknownResult(JsonObject)(line))

const printable = (byte: number) => (byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d
const minLines = 2
const minPrintableShare = 0.95
const maxSampleLength = 120

const lineBreak = /\r\n|\n|\r/u

/**
 * Whether the bytes look like lines of text or of JSON, which the `lines` and
 * `json` protocols read once told where each field is. Binary framed
 * protocols fail the printable test: their frames carry control bytes.
 * With `messages`, each chunk is a whole message (a UDP datagram): its text
 * counts as a line whether or not it ends with a line break.
 */
export const guessText = (chunks: ReadonlyArray<ReceivedChunk>, messages = false): TextGuess | undefined => {
  const bytes = Buffer.concat(chunks.map((c) => c.bytes))
  if (bytes.length === 0) return undefined
  let shown = 0
  for (const byte of bytes) if (printable(byte)) shown++
  if (shown < bytes.length * minPrintableShare) return undefined
  const pieces = messages
    ? chunks.flatMap((c) => Buffer.from(c.bytes).toString("latin1").split(lineBreak))
    // The last piece may be a line still arriving.
    : bytes.toString("latin1").split(lineBreak).slice(0, -1)
  const lines = pieces.map((l) => l.trim()).filter((l) => l !== "")
  if (lines.length < minLines) return undefined
  const json = lines.filter(isJsonObject).length >= lines.length * 0.8
  const sample = lines.at(-1)!.slice(0, maxSampleLength)
  return { kind: json ? "JSON lines" : "text lines", lines: lines.length, sample }
}
