import type { Decoder, DecoderStats } from "../../adapters/decoder.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { ChangeSettler } from "../scoring/change-settler.ts"
import { ScoreChange } from "../scoring/score-change.ts"
import { scoreEntryFor } from "../scoring/score-entry-for.ts"

export interface ReadingRecord {
  readonly type: "reading"
  readonly at: number
  readonly reading: Reading
}

export interface EntryRecord {
  readonly type: "entry"
  readonly at: number
  readonly entry: ScoreEntry
}

/** The decoder's counters (its protocol-specific ones included) and what replay made of them. */
export type SummaryRecord = { readonly type: "summary" } & DecoderStats & {
  readonly [extraStat: string]: unknown
  readonly chunks: number
  readonly bytes: number
  readonly readings: number
  readonly entries: number
}

export type ReplayRecord = ReadingRecord | EntryRecord | SummaryRecord

/**
 * Feeds recorded chunks through a fresh decoder and the daemon's own change
 * rule (`scoreEntryFor`, then `ScoreChange`), yielding every reading, every
 * score entry the daemon would have stored, and a final summary. Pure: no I/O,
 * lazy, so a long capture streams out without being held as records.
 *
 * The change rule starts empty, as for a place with nothing in its outbox:
 * the first complete score is always an entry. `settleMs` is the daemon's
 * settle window (ChangeSettler), applied with the recorded receive times: a
 * held change is printed when the next chunk arrives after it settled, or at
 * the end.
 */
export function* replay(
  decoder: Decoder,
  sport: string,
  chunks: Iterable<ReceivedChunk>,
  settleMs = 0
): Generator<ReplayRecord, void, undefined> {
  const change = new ScoreChange(undefined)
  const settler = new ChangeSettler(change, settleMs)
  let chunkCount = 0
  let bytes = 0
  let readings = 0
  let entries = 0
  const settled = function*(ready: ReadonlyArray<ScoreEntry>): Generator<EntryRecord> {
    for (const entry of ready) {
      change.remember(entry)
      entries++
      yield { type: "entry", at: entry.timeStamp, entry }
    }
  }
  for (const chunk of chunks) {
    chunkCount++
    bytes += chunk.bytes.length
    yield* settled(settler.due(chunk.receivedAt))
    for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
      readings++
      yield { type: "reading", at: reading.receivedAt, reading }
      const entry = scoreEntryFor(sport, reading)
      if (entry !== undefined) yield* settled(settler.offer(entry))
    }
  }
  yield* settled(settler.flush())
  yield { type: "summary", ...decoder.stats, chunks: chunkCount, bytes, readings, entries }
}

/** One NDJSON line, without its newline. */
export const recordLine = (record: ReplayRecord): string => JSON.stringify(record)
