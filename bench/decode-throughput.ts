import { Schema } from "effect"
import type { ProtocolDefinition } from "../adapters/decoder.ts"
import { protocols } from "../adapters/registry.ts"
import { clockAt, consoles, type ProtocolName } from "./consoles.ts"

export interface DecodeFigure {
  readonly mbPerS: number
  readonly bytes: number
  readonly frames: number
  readonly readings: number
}

/** A serial read at 115200 baud hands over a few hundred bytes at a time; so does the bench. */
const chunkBytes = 256
/** Measure for at least this long per decoder, so one GC or JIT pause does not decide the figure. */
const minimumMs = 1_500
/** Bounds the loop even if the clock misbehaves. */
const maximumPasses = 10_000

/** A console's byte stream: mostly clock ticks, a score change every tenth frame. */
const generatedStream = (protocol: ProtocolName, frames: number): Uint8Array => {
  const console = consoles[protocol]
  const parts: Array<Uint8Array> = []
  let home = 0
  for (let n = 0; n < frames; n++) {
    if (n % 10 === 0) home++
    const board = { home: home % 1000, away: 0, period: 1 + (Math.floor(n / 100) % 4), clock: clockAt(n) }
    parts.push(n % 10 === 0 ? console.change(board) : console.tick(board))
  }
  return Buffer.concat(parts)
}

/** One fresh decoder per pass, as a freshly opened port would have, with the options a place would have. */
const decoderFor = (protocol: ProtocolName) => {
  const definition = protocols[protocol] as ProtocolDefinition<unknown>
  const options = Schema.decodeUnknownSync(definition.optionsSchema)(consoles[protocol].options)
  return definition.makeDecoder({ ...(options as object), sport: "basketball" })
}

/** Bytes per second one decoder takes, in-process, fed 256-byte chunks of a generated stream. */
export const measureDecoder = (protocol: ProtocolName): DecodeFigure => {
  const stream = generatedStream(protocol, 5_000)
  const chunks: Array<Uint8Array> = []
  for (let at = 0; at < stream.length; at += chunkBytes) chunks.push(stream.subarray(at, at + chunkBytes))
  // Warm-up: the JIT first, then the figure.
  for (let pass = 0; pass < 3; pass++) {
    const decoder = decoderFor(protocol)
    for (const chunk of chunks) decoder.push(chunk, 0)
  }
  let bytes = 0
  let frames = 0
  let readings = 0
  const start = process.hrtime.bigint()
  let elapsedMs = 0
  for (let pass = 0; pass < maximumPasses && elapsedMs < minimumMs; pass++) {
    const decoder = decoderFor(protocol)
    for (const chunk of chunks) readings += decoder.push(chunk, pass).length
    bytes += stream.length
    frames += decoder.stats.frames
    elapsedMs = Number(process.hrtime.bigint() - start) / 1e6
  }
  if (readings === 0) throw new Error(`${protocol}: the generated stream decoded to no reading: the bench's console is wrong`)
  return { mbPerS: bytes / 1e6 / (elapsedMs / 1000), bytes, frames, readings }
}
