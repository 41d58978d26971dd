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
import { framingLabel } from "./serial-framing.ts"
import { sniffPlan } from "./sniff-plan.ts"
import { type ConsoleSource, describeSerialLine, type NetworkLink, openSource, type SerialSource } from "./source.ts"
import { guessText } from "./text-guess.ts"

/** Most common first: the controllers we know default to 19200, DIY boards to 9600. */
export const defaultBaudRates: ReadonlyArray<number> = [19200, 9600, 38400, 115200, 57600, 4800, 2400]

/** How long sniff waits for a console to connect (or its first datagram) before giving advice. */
export const defaultWaitSeconds = 60

export interface SniffOptions {
  readonly path: string
  /** Speeds to try at each framing (the protocols' documented speeds are added: `sniffPlan`). */
  readonly baudRates: ReadonlyArray<number>
  /** Listening time per speed and framing. */
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

/**
 * Every decoder over the bytes (or those named: the protocols of the framing they were heard
 * with), then the text guess; the report to print once something reads them.
 */
const analyse = (chunks: ReadonlyArray<ReceivedChunk>, via: HeardVia, protocols?: ReadonlyArray<string>): Analysis => {
  const byteCount = chunks.reduce((sum, c) => sum + c.bytes.length, 0)
  if (byteCount === 0) return { _tag: "silent" }
  const results = decodeWithEveryProtocol(chunks, protocols)
  const clean = results.filter(isClean).sort((a, b) => b.frames - a.frames)
  if (clean.length > 0) return { _tag: "recognised", report: recognisedReport(clean[0]!, via) }
  const text = guessText(chunks, via.messages)
  if (text !== undefined) return { _tag: "recognised", report: textReport(text, via) }
  return { _tag: "unrecognised", line: unrecognisedLine(byteCount, results) }
}

/**
 * Listens with each framing sniff knows a console to send at (`sniffPlan`: 8N1, then the
 * recognisable protocols' others), at each speed in turn, and stops at the first listening
 * where a decoder of that framing reads the bytes cleanly (or they are plainly text lines).
 * True when something was recognised.
 */
export const sniff = Effect.fn("sniff")(function*(options: SniffOptions) {
  let anyBytes = false
  const plan = sniffPlan(options.baudRates)
  for (const { framing, baudRates, protocols } of plan) {
    for (const baudRate of baudRates) {
      const line: SerialSource = { _tag: "serial", path: options.path, baudRate, ...framing }
      const heard = yield* listenOnce(line, options.seconds, options.seconds, () => `Listening on ${describeSerialLine(line)} for ${options.seconds} s…`)
      const analysis = analyse(heard?.chunks ?? [], viaSerial(line), protocols)
      if (analysis._tag === "recognised") {
        yield* Console.log(analysis.report.join("\n"))
        return true
      }
      anyBytes ||= analysis._tag === "unrecognised"
      yield* Console.log(analysis._tag === "silent" ? "  nothing received" : analysis.line)
    }
  }
  yield* Console.log(nothingRecognisedAdvice(anyBytes, plan.map(({ framing }) => framingLabel(framing))))
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
