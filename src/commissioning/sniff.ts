import { Console, Effect } from "effect"
import { decodeWithEveryProtocol, isClean } from "./recognise.ts"
import { listenFor } from "./serial-session.ts"
import { nothingRecognisedAdvice, recognisedReport, textReport, unrecognisedLine } from "./sniff-report.ts"
import { guessText } from "./text-guess.ts"

/** Most common first: the controllers we know default to 19200, DIY boards to 9600. */
export const defaultBaudRates: ReadonlyArray<number> = [19200, 9600, 38400, 115200, 57600, 4800, 2400]

export interface SniffOptions {
  readonly path: string
  readonly baudRates: ReadonlyArray<number>
  /** Listening time per speed. */
  readonly seconds: number
}

/**
 * Listens at each speed in turn and stops at the first one where a decoder
 * reads the bytes cleanly (or they are plainly text lines). True when
 * something was recognised.
 */
export const sniff = Effect.fn("sniff")(function*(options: SniffOptions) {
  let anyBytes = false
  for (const baudRate of options.baudRates) {
    const chunks = yield* listenFor(
      options.path,
      baudRate,
      options.seconds * 1000,
      Console.log(`Listening on ${options.path} at ${baudRate} baud for ${options.seconds} s…`)
    )
    const byteCount = chunks.reduce((sum, c) => sum + c.bytes.length, 0)
    if (byteCount === 0) {
      yield* Console.log("  nothing received")
      continue
    }
    anyBytes = true
    const results = decodeWithEveryProtocol(chunks)
    const clean = results.filter(isClean).sort((a, b) => b.frames - a.frames)
    const text = clean.length === 0 ? guessText(chunks) : undefined
    const report = clean.length > 0
      ? recognisedReport(clean[0]!, options.path, baudRate)
      : text === undefined ? undefined : textReport(text, options.path, baudRate)
    if (report !== undefined) {
      yield* Console.log(report.join("\n"))
      return true
    }
    yield* Console.log(unrecognisedLine(byteCount, results))
  }
  yield* Console.log(nothingRecognisedAdvice(anyBytes))
  return false
})
