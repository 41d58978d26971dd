import { Effect, Option } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { Reading } from "../domain/reading.ts"
import { type OutboxItem, OutboxItems } from "../delivery/outbox.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { type AutoHighlightSettings, autoHighlightItems } from "../highlights/auto-highlighter.ts"
import { ScoreMoments } from "../highlights/score-moments.ts"
import { scoreRules } from "../highlights/finish-moments.ts"
import { scoreStateOf } from "../highlights/score-state.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { ScoreChange, scoreFingerprint } from "./score-change.ts"

/** The rules' judge of the place's score changes, primed with the last entry stored; none without score rules (a finish is no score change). */
const momentsFor = (sport: string, autos: AutoHighlightSettings | undefined, lastEntry: ScoreEntry | undefined) => {
  const rules = scoreRules(autos?.rules ?? [])
  return rules.length === 0 ? undefined : new ScoreMoments(sport, rules, lastEntry === undefined ? undefined : scoreStateOf(sport, lastEntry))
}

const logQueued = (place: string, stored: ReadonlyArray<OutboxItem>) =>
  Effect.forEach(stored, (item) =>
    item.kind === "click"
      ? Effect.logInfo(`${place}: ${item.payload.metadata.rule ?? "auto"} auto-highlight #${item.id} queued`)
      : Effect.void, { discard: true })

/**
 * Where a place's settled score changes go: the outbox, each entry with the auto-highlights its
 * rules choose in the same transaction (a crash keeps both or neither), stamped with the event
 * known to be live. It remembers the last stored entry, against which the next reading is judged,
 * also across restarts (read back from the outbox).
 */
export const makeEntryStore = Effect.fnUntraced(function*(place: string, sport: string, autos?: AutoHighlightSettings) {
  const outbox = yield* OutboxItems
  const events = yield* ActiveEvents
  const bus = yield* BridgeEvents
  const last = yield* outbox.lastOf(place, "score")
  let lastEntry = Option.match(last, { onNone: () => undefined, onSome: (item) => item.payload })
  const change = new ScoreChange(lastEntry)
  const moments = momentsFor(sport, autos, lastEntry)
  // The reading each candidate entry came from (by score), for what only readings show: who serves, padel's sets.
  const readingOf = new Map<string, Reading>()

  // Only a broker message waits for the disk (it is acknowledged after); a serial line's entry
  // goes on at the commit, and the scheduler sends it once it is on disk.
  const store = Effect.fnUntraced(function*(entry: ScoreEntry, redeliverable: boolean) {
    const known = yield* events.current(place)
    const judged = moments?.judge(scoreStateOf(sport, entry, readingOf.get(scoreFingerprint(entry))))
    const clicks = judged === undefined ? [] : yield* autoHighlightItems(place, autos!, judged.highlights, entry)
    const [item, ...made] = yield* outbox.appendAll([
      { place, kind: "score", payload: entry, eventKey: known?.eventKey ?? null, createdAt: entry.timeStamp },
      ...clicks
    ], { wait: redeliverable ? "disk" : "commit" })
    change.remember(entry)
    judged?.accept()
    lastEntry = entry
    readingOf.delete(scoreFingerprint(entry))
    yield* bus.publish({ _tag: "Entry", place, itemId: item!.id, entry })
    yield* logQueued(place, made)
  })

  // A countdown reaching zero ends a period with no score change: its highlight is stored alone.
  const clockMoments = Effect.fnUntraced(function*(reading: Reading, redeliverable: boolean) {
    const highlights = moments?.onReading(reading) ?? []
    if (highlights.length === 0) return
    const clicks = yield* autoHighlightItems(place, autos!, highlights, lastEntry)
    if (clicks.length === 0) return
    yield* logQueued(place, yield* outbox.appendAll(clicks, { wait: redeliverable ? "disk" : "commit" }))
  }, (effect) => Effect.catch(effect, (e) => Effect.logError(`${place}: period-end auto-highlight NOT stored: ${e.message}`)))

  return {
    /** What the next reading's entry is compared with: the last one stored. */
    change,
    store,
    /**
     * A reading of the place's board: its clock may end a period (a highlight of its own), and its
     * candidate entry is remembered by score until stored, for the rules that read more than the score.
     */
    read: Effect.fnUntraced(function*(reading: Reading, entry: ScoreEntry | undefined, redeliverable: boolean) {
      if (moments === undefined) return
      yield* clockMoments(reading, redeliverable)
      if (entry === undefined) return
      if (readingOf.size > 64) readingOf.clear()
      readingOf.set(scoreFingerprint(entry), reading)
    })
  }
})
