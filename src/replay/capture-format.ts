import { Result, Schema } from "effect"
import type { ReceivedChunk } from "../domain/received.ts"

/**
 * A capture with receive times, as `scorebridge capture` writes it and
 * `scorebridge replay` reads it: NDJSON (UTF-8), one record per received chunk,
 * in arrival order:
 *
 *     {"t":1718000000123,"b":"FgEwMDQyMTAwMTA3AiAgNDEE..."}
 *
 * - `t`: the chunk's receive time, integer ms since the Unix epoch;
 * - `b`: the chunk's bytes exactly as the transport delivered them, base64.
 *
 * Text rather than binary so a capture survives email and ticket systems and
 * can be cut with `head`/`grep`; one chunk per line keeps the transport's real
 * chunk boundaries, which framing bugs often depend on. Empty lines are ignored.
 */
export const captureExtension = ".ndjson"

const CaptureRecord = Schema.Struct({
  t: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  b: Schema.Uint8ArrayFromBase64
})

const CaptureLine = Schema.fromJsonString(CaptureRecord)
const encodeLine = Schema.encodeSync(CaptureLine)
const decodeLine = Schema.decodeUnknownResult(CaptureLine)

/** One capture line, newline included. */
export const captureLine = (chunk: ReceivedChunk): string =>
  `${encodeLine({ t: chunk.receivedAt, b: chunk.bytes })}\n`

const oneLine = (text: string) => text.replace(/\s*\n\s*/gu, " ")

/** The chunks of a capture, or the first bad line (1-based) and what is wrong with it. */
export const parseCapture = (text: string): Result.Result<ReadonlyArray<ReceivedChunk>, string> => {
  const chunks: Array<ReceivedChunk> = []
  const lines = text.split("\n")
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue
    const record = decodeLine(line)
    if (Result.isFailure(record)) {
      return Result.fail(`line ${index + 1} is not a capture record {"t":<ms>,"b":"<base64>"}: ${oneLine(record.failure.message)}`)
    }
    chunks.push({ receivedAt: record.success.t, bytes: record.success.b })
  }
  return Result.succeed(chunks)
}
