import type { Decoder, DecoderStats } from "../../adapters/decoder.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { ChangeSettler } from "../scoring/change-settler.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { finishFacts, type FinishFacts } from "../domain/race.ts"
import { type AutoRuleName, ruleFamily } from "../domain/rule-catalog.ts"
import { finishHighlights, scoreRules } from "../highlights/finish-moments.ts"
import { RaceFinishes } from "../highlights/race-finishes.ts"
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
  /** A `finish` highlight's swimmer: lane, place, the time as the board shows it, event and heat. */
  readonly finish?: FinishFacts
}

export type ReplayRecord = ReadingRecord | EntryRecord | HighlightRecord | SummaryRecord

const highlightRecord = (h: AutoHighlight): HighlightRecord => ({
  type: "highlight",
  at: h.at,
  rule: h.rule,
  rules: h.rules,
  team: h.team,
  startTime: h.at - Math.round(h.window.beforeSeconds * 1000),
  endTime: h.at + Math.round(h.window.afterSeconds * 1000),
  ...(h.finish === undefined ? {} : { finish: finishFacts(h.finish) })
})

/**
 * The race of a capture whose readings carry race boards, as the daemon follows it
 * (src/scoring/finish-store.ts): the tracker starts at the first race reading, with no finish
 * made before (as for a place with nothing in its outbox).
 */
const replayRace = (sport: string, rules: ReadonlyArray<AutoRule>) => {
  let tracker: RaceFinishes | undefined
  let finishes = 0
  return {
    /** The highlights a reading's finishes make by the `finish` rule. */
    highlights: (reading: Reading): ReadonlyArray<AutoHighlight> => {
      if (reading.race === undefined) return []
      tracker ??= new RaceFinishes()
      const settled = tracker.onReading(reading)
      finishes += settled.length
      return finishHighlights(settled, rules, sport)
    },
    /** The summary's count: for a race sport, or wherever a race board was read. */
    summary: (): { readonly finishes?: number } => (tracker !== undefined || ruleFamily(sport) === "race" ? { finishes } : {})
  }
}

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
 * the end. Race boards go through the daemon's race tracker: each finish the
 * `finish` rule selects is a highlight, stamped at the touch.
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
  const moments = scoreRules(rules).length === 0 ? undefined : new ScoreMoments(sport, scoreRules(rules))
  const race = replayRace(sport, rules)
  const readingOf = new Map<string, Reading>()
  let highlights = 0
  const settler = new ChangeSettler(change, settleMs)
  let chunkCount = 0
  let bytes = 0
  let readings = 0
  let entries = 0
  const made = function*(selected: ReadonlyArray<AutoHighlight>): Generator<HighlightRecord> {
    highlights += selected.length
    yield* selected.map(highlightRecord)
  }
  const settled = function*(ready: ReadonlyArray<ScoreEntry>): Generator<EntryRecord | HighlightRecord> {
    for (const entry of ready) {
      change.remember(entry)
      entries++
      yield { type: "entry", at: entry.timeStamp, entry }
      yield* made(moments?.onEntry(scoreStateOf(sport, entry, readingOf.get(scoreFingerprint(entry)))) ?? [])
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
      yield* made([...moments?.onReading(reading) ?? [], ...race.highlights(reading)])
      const entry = scoreEntryFor(sport, reading)
      if (entry !== undefined && moments !== undefined) {
        if (readingOf.size > 64) readingOf.clear()
        readingOf.set(scoreFingerprint(entry), reading)
      }
      if (entry !== undefined) yield* settled(settler.offer(entry))
    }
  }
  yield* settled(settler.flush())
  const counts = { chunks: chunkCount, bytes, readings, entries, ...(rules.length === 0 ? {} : { highlights }), ...race.summary() }
  yield { type: "summary", ...decoder.stats, ...counts }
}

/** One NDJSON line, without its newline. */
export const recordLine = (record: ReplayRecord): string => JSON.stringify(record)
