import { Effect, Queue, Schedule, Semaphore, Stream } from "effect"
import type { Decoder } from "../../adapters/decoder.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { AutoHighlightSettings } from "../highlights/auto-highlighter.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { LatestBoard } from "../clicks/board-extras.ts"
import { ActivityMeter } from "./activity-meter.ts"
import { ChangeSettler } from "./change-settler.ts"
import { makeEntryStore } from "./entry-store.ts"
import { makeFinishStore } from "./finish-store.ts"
import { scoreEntryFor } from "./score-entry-for.ts"
import { settleTimer, watchAndSettle } from "./settle-timer.ts"

/**
 * One place's scoreboard: received bytes → decoder → readings → settled score
 * entries on a real change → outbox (committed; sent once on disk), whose append wakes the
 * scheduler; a timing console's race boards → finishes → finish clicks (finish-store.ts). An entry is stamped with the receive time of the frame that first showed the
 * change and with the event known to be live then. `settleMs` > 0 (partial-update protocols)
 * holds a change until its frames stop coming: see ChangeSettler.
 *
 * A redeliverable input (MQTT) is acknowledged only once the entries it completed are stored,
 * retrying while the state directory cannot be written; a serial line cannot be asked again, so
 * its change stays pending in memory and the next reading with that score tries again.
 * A message that only starts a held change is acknowledged once read, not when the change
 * settles: mqtt.js hands over the next message (the rest of the change) only after that ack.
 * Like a serial line's, a held change is then lost in a crash; so is the RTD buffer it was
 * built in, which a redelivered frame alone could not rebuild.
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
  const bus = yield* BridgeEvents
  const board = yield* LatestBoard
  const entries = yield* makeEntryStore(place, sport, autos)
  const finishes = yield* makeFinishStore(place, sport, autos)
  const settler = new ChangeSettler(entries.change, settleMs)
  const activity = new ActivityMeter()
  // Chunks and the settle timer take turns: a burst is released and stored whole, never while a frame is applied.
  const turn = yield* Semaphore.make(1)
  const settleBell = yield* Queue.sliding<void>(1)

  const storeAll = (settled: ReadonlyArray<ScoreEntry>, redeliverable: boolean) =>
    Effect.forEach(settled, (entry) =>
      redeliverable
        ? entries.store(entry, true).pipe(
          Effect.tapError((e) => Effect.logError(`${place}: score change NOT stored, not acknowledged to the broker, retrying: ${String(e)}`)),
          Effect.retry(Schedule.spaced("1 second"))
        )
        : entries.store(entry, false).pipe(
          Effect.catch((e) => Effect.logError(`${place}: score change NOT stored, will retry on the next frame: ${String(e)}`))
        ), { discard: true })

  if (settleMs > 0) {
    yield* Effect.forkChild(settleTimer({ settler, turn, bell: settleBell, store: (settled) => storeAll(settled, false) }))
  }

  yield* Stream.runForEach(chunks, (chunk) =>
    turn.withPermit(Effect.gen(function*() {
      const report = activity.received(chunk.bytes.length, chunk.receivedAt)
      // For the status page: bytes that arrive but never decode must be told apart from silence.
      if (report !== undefined) yield* bus.publish({ _tag: "Activity", place, ...report, stats: { ...decoder.stats } })
      const redeliverable = chunk.ack !== undefined
      // A burst that settled before this chunk is stored first: the readings below compare with it.
      yield* storeAll(watchAndSettle(settler, chunk.receivedAt), false)
      for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
        yield* bus.publish({ _tag: "Reading", place, reading, stats: decoder.stats })
        yield* board.record(place, reading)
        const entry = scoreEntryFor(sport, reading)
        yield* entries.read(reading, entry, redeliverable)
        yield* finishes.read(reading, redeliverable)
        // Stored one by one: each next reading is compared with the entry stored before it.
        if (entry !== undefined) yield* storeAll(settler.offer(entry), redeliverable)
      }
      chunk.ack?.()
      if (settler.holding) yield* Queue.offer(settleBell, undefined)
    })))
})
