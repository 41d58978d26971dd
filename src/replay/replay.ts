import type { Decoder, DecoderStats } from "../../adapters/decoder.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { ChangeSettler } from "../scoring/change-settler.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import type { AutoRuleName } from "../domain/rule-catalog.ts"
import { type AutoHighlight, ScoreMoments } from "../highlights/score-moments.ts"
import { scoreStateOf } from "../highlights/score-state.ts"
import { ScoreChange, scoreFingerprint } from "../scoring/score-change.ts"
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

/** A click an auto-highlight rule would make, as the daemon would ask the service for it. */
export interface HighlightRecord {
  readonly type: "highlight"
  readonly at: number
  readonly rule: AutoRuleName
  /** Every rule that chose the same moment (one click all the same). */
  readonly rules: ReadonlyArray<AutoRuleName>
  readonly team: "home" | "away" | "none"
  readonly startTime: number
  readonly endTime: number
}

export type ReplayRecord = ReadingRecord | EntryRecord | HighlightRecord | SummaryRecord

const highlightRecord = (h: AutoHighlight): HighlightRecord => ({
  type: "highlight",
  at: h.at,
  rule: h.rule,
  rules: h.rules,
  team: h.team,
  startTime: h.at - Math.round(h.window.beforeSeconds * 1000),
  endTime: h.at + Math.round(h.window.afterSeconds * 1000)
})

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
  settleMs = 0,
  /** Auto-highlight rules: each entry's change is judged as the daemon judges it (presses aside). */
  rules: ReadonlyArray<AutoRule> = []
): Generator<ReplayRecord, void, undefined> {
  const change = new ScoreChange(undefined)
  const moments = rules.length === 0 ? undefined : new ScoreMoments(sport, rules)
  const readingOf = new Map<string, Reading>()
  let highlights = 0
  const settler = new ChangeSettler(change, settleMs)
  let chunkCount = 0
  let bytes = 0
  let readings = 0
  let entries = 0
  const settled = function*(ready: ReadonlyArray<ScoreEntry>): Generator<EntryRecord | HighlightRecord> {
    for (const entry of ready) {
      change.remember(entry)
      entries++
      yield { type: "entry", at: entry.timeStamp, entry }
      for (const h of moments?.onEntry(scoreStateOf(sport, entry, readingOf.get(scoreFingerprint(entry)))) ?? []) {
        highlights++
        yield highlightRecord(h)
      }
      readingOf.delete(scoreFingerprint(entry))
    }
  }
  for (const chunk of chunks) {
    chunkCount++
    bytes += chunk.bytes.length
    yield* settled(settler.due(chunk.receivedAt))
    for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
      readings++
      yield { type: "reading", at: reading.receivedAt, reading }
      for (const h of moments?.onReading(reading) ?? []) {
        highlights++
        yield highlightRecord(h)
      }
      const entry = scoreEntryFor(sport, reading)
      if (entry !== undefined && moments !== undefined) {
        if (readingOf.size > 64) readingOf.clear()
        readingOf.set(scoreFingerprint(entry), reading)
      }
      if (entry !== undefined) yield* settled(settler.offer(entry))
    }
  }
  yield* settled(settler.flush())
  yield { type: "summary", ...decoder.stats, chunks: chunkCount, bytes, readings, entries, ...(moments === undefined ? {} : { highlights }) }
}

/** One NDJSON line, without its newline. */
export const recordLine = (record: ReplayRecord): string => JSON.stringify(record)
