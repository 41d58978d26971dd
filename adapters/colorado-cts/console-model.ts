import type { ReceivedChunk } from "../../src/domain/received.ts"
import { seededRandom } from "../shared/seeded-random.ts"
import { newBoard } from "./console-board.ts"
import { changeQueue } from "./console-events.ts"
import { tickMs, transmit } from "./console-line.ts"
import { addRace, finishesOf, raceTimes } from "./console-race.ts"
import type { ModelFinish, ModelOptions, ModelStream, RaceScript } from "./console-script.ts"

export type { LaneScript, ModelFinish, ModelOptions, ModelStream, RaceScript } from "./console-script.ts"

/**
 * A System-6-class console's scoreboard line, written from the facts in
 * ../shared/protocols/colorado-cts.md (§2 cycle and timing, §4 channel map, §5 a race on the
 * wire), for tests, replays and end-to-end runs: the bytes a console sends for scripted races, with
 * the finishes it settles. Independent of the decoder; built on the wire encoder (encode.ts).
 * Deterministic for a seed: the seed draws the latencies, the provisional values, the hold times,
 * the time of day and how far into its first packet the stream begins.
 */

/** Bytes into chunks, each stamped when its last byte left the console. */
const chunked = (bytes: Uint8Array, chunkBytes: number, baudRate: number) => {
  const size = Math.max(1, Math.floor(chunkBytes))
  const msPerByte = 11_000 / baudRate
  const chunks: Array<{ atMs: number; bytes: Uint8Array }> = []
  for (let at = 0; at < bytes.length; at += size) {
    const end = Math.min(bytes.length, at + size)
    chunks.push({ atMs: end * msPerByte, bytes: bytes.slice(at, end) })
  }
  return chunks
}

/** Several races back to back (one continuous stream). */
export const meetStream = (
  races: ReadonlyArray<RaceScript>,
  options: ModelOptions = {}
): ModelStream & { readonly races: ReadonlyArray<{ startMs: number; finishes: ReadonlyArray<ModelFinish> }> } => {
  if (races.length === 0) throw new Error("console model: a meet needs at least one race")
  const random = seededRandom(options.seed ?? 1)
  const baudRate = options.baudRate ?? 9600
  const changes = changeQueue()
  const board = newBoard(random.int(8 * 60, 20 * 60))
  let segmentStartMs = 0
  const played = races.map((script) => {
    const times = raceTimes(script, segmentStartMs, tickMs(baudRate))
    const finishes = finishesOf(script, times)
    addRace(script, times, finishes, changes, random)
    segmentStartMs = times.endMs
    return { times, finishes }
  })
  const bytes = transmit({
    baudRate,
    interruptions: options.interruptions ?? true,
    endMs: segmentStartMs,
    spans: played.map(({ times }) => ({ hornMs: times.hornMs, resetMs: times.resetMs })),
    board,
    changes,
    missedBytes: random.int(0, 3)
  })
  return {
    chunks: chunked(bytes, options.chunkBytes ?? 16, baudRate),
    startMs: played[0]!.times.hornMs,
    finishes: played.flatMap((race) => race.finishes),
    resetMs: played.at(-1)!.times.resetMs,
    races: played.map((race) => ({ startMs: race.times.hornMs, finishes: race.finishes }))
  }
}

export const raceStream = (script: RaceScript, options?: ModelOptions): ModelStream => {
  const { races: _, ...stream } = meetStream([script], options)
  return stream
}

/** As ReceivedChunk[] for decoders/replay: receivedAt = epoch + atMs. */
export const receivedChunks = (stream: ModelStream, epochMs: number): Array<ReceivedChunk> =>
  stream.chunks.map((chunk) => ({ bytes: chunk.bytes, receivedAt: epochMs + chunk.atMs }))
