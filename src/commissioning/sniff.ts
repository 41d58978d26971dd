import { Console, Effect } from "effect"
import type { ReceivedChunk } from "../domain/received.ts"
import { decodeWithEveryProtocol, isClean } from "./recognise.ts"
import {
  type HeardVia,
  networkNothingRecognisedAdvice,
  noConsoleAdvice,
  nothingRecognisedAdvice,
  recognisedReport,
  textReport,
  unrecognisedLine,
  viaNetwork,
  viaSerial
} from "./sniff-report.ts"
import { type ConsoleSource, type NetworkLink, openSource } from "./source.ts"
import { guessText } from "./text-guess.ts"

/** Most common first: the controllers we know default to 19200, DIY boards to 9600. */
export const defaultBaudRates: ReadonlyArray<number> = [19200, 9600, 38400, 115200, 57600, 4800, 2400]

/** How long sniff waits for a console to connect (or its first datagram) before giving advice. */
export const defaultWaitSeconds = 60

export interface SniffOptions {
  readonly path: string
  readonly baudRates: ReadonlyArray<number>
  /** Listening time per speed. */
  readonly seconds: number
}

export interface NetworkSniffOptions {
  readonly link: NetworkLink
  /** Listening time, from the console's connection (or first datagram). */
  readonly seconds: number
  /** How long to wait for that connection. */
  readonly waitSeconds: number
}

interface Heard {
  /** Who sent: "console 192.168.1.60:51234", "/dev/ttyUSB0 at 19200 baud". */
  readonly from: string
  readonly chunks: ReadonlyArray<ReceivedChunk>
}

/**
 * Every chunk within `seconds` of the console being there (fewer if the link dies first), or
 * undefined when it did not come within `waitSeconds`. `listening` names what is heard.
 */
const listenOnce = (source: ConsoleSource, seconds: number, waitSeconds: number, listening: (from: string) => string) =>
  Effect.scoped(Effect.gen(function*() {
    const chunks: Array<ReceivedChunk> = []
    const session = yield* openSource(source, (chunk) => chunks.push(chunk))
    if (session.waiting !== undefined) {
      yield* Console.log(`${session.waiting}\n  (up to ${waitSeconds} s; listening lasts ${seconds} s from then)`)
    }
    const arrived = yield* Effect.timeoutOption(session.arrived, waitSeconds * 1000)
    if (arrived._tag === "None") return undefined
    yield* Console.log(listening(arrived.value))
    const lost = yield* Effect.raceFirst(Effect.as(Effect.sleep(seconds * 1000), undefined), session.lost)
    if (lost !== undefined) yield* Console.log(`  ${lost}: stopped listening`)
    return { from: arrived.value, chunks: [...chunks] } satisfies Heard
  }))

type Analysis =
  | { readonly _tag: "silent" }
  | { readonly _tag: "recognised"; readonly report: ReadonlyArray<string> }
  | { readonly _tag: "unrecognised"; readonly line: string }

/** Every decoder over the bytes, then the text guess; the report to print once something reads them. */
const analyse = (chunks: ReadonlyArray<ReceivedChunk>, via: HeardVia): Analysis => {
  const byteCount = chunks.reduce((sum, c) => sum + c.bytes.length, 0)
  if (byteCount === 0) return { _tag: "silent" }
  const results = decodeWithEveryProtocol(chunks)
  const clean = results.filter(isClean).sort((a, b) => b.frames - a.frames)
  if (clean.length > 0) return { _tag: "recognised", report: recognisedReport(clean[0]!, via) }
  const text = guessText(chunks, via.messages)
  if (text !== undefined) return { _tag: "recognised", report: textReport(text, via) }
  return { _tag: "unrecognised", line: unrecognisedLine(byteCount, results) }
}

/**
 * Listens at each speed in turn and stops at the first one where a decoder
 * reads the bytes cleanly (or they are plainly text lines). True when
 * something was recognised.
 */
export const sniff = Effect.fn("sniff")(function*(options: SniffOptions) {
  let anyBytes = false
  for (const baudRate of options.baudRates) {
    const heard = yield* listenOnce(
      { _tag: "serial", path: options.path, baudRate },
      options.seconds,
      options.seconds,
      () => `Listening on ${options.path} at ${baudRate} baud for ${options.seconds} s…`
    )
    const analysis = analyse(heard?.chunks ?? [], viaSerial(options.path, baudRate))
    if (analysis._tag === "recognised") {
      yield* Console.log(analysis.report.join("\n"))
      return true
    }
    anyBytes ||= analysis._tag === "unrecognised"
    yield* Console.log(analysis._tag === "silent" ? "  nothing received" : analysis.line)
  }
  yield* Console.log(nothingRecognisedAdvice(anyBytes))
  return false
})

/**
 * Listens once on a network link: no speeds to try, the console or converter sets them. The
 * listening time starts when the console connects (or its first datagram arrives), within
 * `waitSeconds`. True when something was recognised.
 */
export const sniffNetwork = Effect.fn("sniffNetwork")(function*(options: NetworkSniffOptions) {
  const heard = yield* listenOnce(options.link, options.seconds, options.waitSeconds, (from) => `Listening to ${from} for ${options.seconds} s…`)
  if (heard === undefined) {
    yield* Console.log(noConsoleAdvice(options.link, options.waitSeconds))
    return false
  }
  const via = viaNetwork(options.link, heard.from)
  const analysis = analyse(heard.chunks, via)
  if (analysis._tag === "recognised") {
    yield* Console.log(analysis.report.join("\n"))
    return true
  }
  yield* Console.log(analysis._tag === "silent" ? "  nothing received" : analysis.line)
  yield* Console.log(networkNothingRecognisedAdvice(options.link, via, analysis._tag === "unrecognised", options.seconds))
  return false
})
