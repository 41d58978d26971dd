import { Clock, Effect, Option, Queue, Schedule, Semaphore, Stream } from "effect"
import type { Decoder } from "../../adapters/decoder.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { Outbox, type OutboxItem } from "../delivery/outbox.ts"
import type { Reading } from "../domain/reading.ts"
import { type AutoHighlightSettings, autoHighlightItems } from "../highlights/auto-highlighter.ts"
import { ScoreMoments } from "../highlights/score-moments.ts"
import { scoreStateOf } from "../highlights/score-state.ts"
import type { ClickBody } from "../service/schemas.ts"
import { Scheduler } from "../delivery/scheduler.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { ChangeSettler, type LoopWatch } from "../scoring/change-settler.ts"
import { ScoreChange, scoreFingerprint } from "../scoring/score-change.ts"
import { scoreEntryFor } from "../scoring/score-entry-for.ts"
import { BridgeEvents } from "../status/bridge-events.ts"
import { LatestBoard } from "../clicks/board-extras.ts"

/** How often a held burst is looked at: a few looks per settle window. */
const watchMs = 10

/**
 * A look over 25 ms after the one before means the event loop was held (timer jitter stays under
 * it); the burst then waits 30 ms more (three looks) for the frames that waited to be read.
 */
const loopWatch: LoopWatch = { blindMs: watchMs + 15, graceMs: 3 * watchMs }

/**
 * One place's scoreboard: received bytes → decoder → readings → settled score
 * entries on a real change → outbox (committed; sent once on disk) → scheduler. An entry is stamped
 * with the receive time of the frame that first showed the change and with the
 * event known to be live then. `settleMs` > 0 (partial-update protocols) holds
 * a change until its frames stop coming: see ChangeSettler.
 */
export const runScoreboard = <R>(
  place: string,
  sport: string,
  decoder: Decoder,
  chunks: Stream.Stream<ReceivedChunk, never, R>,
  settleMs = 0,
  /** The place's auto-highlight rules, if it has any. */
  autos?: AutoHighlightSettings
) => Effect.gen(function*() {
  const outbox = yield* Outbox
  const scheduler = yield* Scheduler
  const events = yield* ActiveEvents
  const bus = yield* BridgeEvents
  const board = yield* LatestBoard
  const last = yield* outbox.lastOf(place, "score")
  let lastEntry = Option.match(last, { onNone: () => undefined, onSome: (item) => item.payload as ScoreEntry })
  const change = new ScoreChange(lastEntry)
  const moments = autos === undefined || autos.rules.length === 0
    ? undefined
    : new ScoreMoments(sport, autos.rules, lastEntry === undefined ? undefined : scoreStateOf(sport, lastEntry))
  // The reading each candidate entry came from (by score), for what only readings show: who serves, padel's sets.
  const readingOf = new Map<string, Reading>()
  const settler = new ChangeSettler(change, settleMs)
  // Chunks and the settle timer take turns: a burst is released and stored whole, never while a frame is applied.
  const turn = yield* Semaphore.make(1)
  const settleBell = yield* Queue.sliding<void>(1)

  const logQueued = (stored: ReadonlyArray<OutboxItem>) =>
    Effect.forEach(stored, (item) =>
      item.kind === "click"
        ? Effect.logInfo(`${place}: ${String((item.payload as ClickBody).metadata?.["rule"])} auto-highlight #${item.id} queued`)
        : Effect.void, { discard: true })

  // An entry's auto-highlights are appended in its transaction: a crash keeps both or neither.
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
    yield* logQueued(made)
    yield* scheduler.wake
  })

  // A countdown reaching zero ends a period with no score change: its highlight is stored alone.
  const clockMoments = Effect.fnUntraced(function*(reading: Reading, redeliverable: boolean) {
    const highlights = moments?.onReading(reading) ?? []
    if (highlights.length === 0) return
    const clicks = yield* autoHighlightItems(place, autos!, highlights, lastEntry)
    if (clicks.length === 0) return
    yield* logQueued(yield* outbox.appendAll(clicks, { wait: redeliverable ? "disk" : "commit" }))
    yield* scheduler.wake
  }, (effect) => Effect.catch(effect, (e) => Effect.logError(`${place}: period-end auto-highlight NOT stored: ${String(e)}`)))

  // For the status page: bytes that arrive but never decode must be told apart from silence.
  let bytesReceived = 0
  let lastActivityAt = -Infinity
  const reportActivity = (receivedAt: number) => {
    if (receivedAt - lastActivityAt < 1_000) return Effect.void
    lastActivityAt = receivedAt
    return bus.publish({ _tag: "Activity", place, receivedAt, bytes: bytesReceived, stats: { ...decoder.stats } })
  }

  // A redeliverable input (MQTT) is acknowledged only once the entries it completed are stored,
  // retrying while the state directory cannot be written; a serial line cannot be asked again, so
  // its change stays pending in memory and the next reading with that score tries again.
  // A message that only starts a held change is acknowledged once read, not when the change
  // settles: mqtt.js hands over the next message (the rest of the change) only after that ack.
  // Like a serial line's, a held change is then lost in a crash; so is the RTD buffer it was
  // built in, which a redelivered frame alone could not rebuild.
  const storeAll = (entries: ReadonlyArray<ScoreEntry>, redeliverable: boolean) =>
    Effect.forEach(entries, (entry) =>
      redeliverable
        ? store(entry, true).pipe(
          Effect.tapError((e) => Effect.logError(`${place}: score change NOT stored, not acknowledged to the broker, retrying: ${String(e)}`)),
          Effect.retry(Schedule.spaced("1 second"))
        )
        : store(entry, false).pipe(
          Effect.catch((e) => Effect.logError(`${place}: score change NOT stored, will retry on the next frame: ${String(e)}`))
        ), { discard: true })

  // A held burst is looked at every `watchMs`; a look that comes over `blindMs` after the one before
  // means the event loop was held, and unread frames of the change may be waiting (ChangeSettler.watch).
  const watchAndSettle = (now: number) => {
    settler.watch(now, loopWatch)
    return storeAll(settler.due(now), false)
  }

  // Releases a held burst once its frames have stopped coming; only runs while one is held.
  const settleTimer = Effect.gen(function*() {
    while (true) {
      if (settler.deadline === undefined) {
        yield* Queue.take(settleBell)
        continue
      }
      yield* turn.withPermit(Effect.flatMap(Clock.currentTimeMillis, watchAndSettle))
      const deadline = settler.deadline
      if (deadline !== undefined) yield* Effect.sleep(Math.max(1, Math.min(watchMs, deadline - (yield* Clock.currentTimeMillis))))
    }
  })
  if (settleMs > 0) yield* Effect.forkChild(settleTimer)

  yield* Stream.runForEach(chunks, (chunk) =>
    turn.withPermit(Effect.gen(function*() {
      bytesReceived += chunk.bytes.length
      yield* reportActivity(chunk.receivedAt)
      const redeliverable = chunk.ack !== undefined
      // A burst that settled before this chunk is stored first: the readings below compare with it.
      yield* watchAndSettle(chunk.receivedAt)
      for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
        yield* bus.publish({ _tag: "Reading", place, reading, stats: decoder.stats })
        yield* board.record(place, reading)
        if (moments !== undefined) yield* clockMoments(reading, redeliverable)
        const entry = scoreEntryFor(sport, reading)
        if (entry !== undefined && moments !== undefined) {
          if (readingOf.size > 64) readingOf.clear()
          readingOf.set(scoreFingerprint(entry), reading)
        }
        // Stored one by one: each next reading is compared with the entry stored before it.
        if (entry !== undefined) yield* storeAll(settler.offer(entry), redeliverable)
      }
      chunk.ack?.()
      if (settler.holding) yield* Queue.offer(settleBell, undefined)
    })))
})
