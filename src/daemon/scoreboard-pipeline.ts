import { Effect, Option, Schedule, Stream } from "effect"
import type { Decoder } from "../../adapters/decoder.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { Outbox } from "../delivery/outbox.ts"
import { Scheduler } from "../delivery/scheduler.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { ScoreChange } from "../scoring/score-change.ts"
import { scoreEntryFor } from "../scoring/score-entry-for.ts"
import { BridgeEvents } from "../status/bridge-events.ts"

/**
 * One place's scoreboard: received bytes → decoder → readings → score entries
 * on a real change → outbox (durably) → scheduler. An entry is stamped with the
 * receive time of the frame that first showed the change and with the event
 * known to be live then.
 */
export const runScoreboard = <R>(
  place: string,
  sport: string,
  decoder: Decoder,
  chunks: Stream.Stream<ReceivedChunk, never, R>
) => Effect.gen(function*() {
  const outbox = yield* Outbox
  const scheduler = yield* Scheduler
  const events = yield* ActiveEvents
  const bus = yield* BridgeEvents
  const last = yield* outbox.lastOf(place, "score")
  const change = new ScoreChange(Option.match(last, { onNone: () => undefined, onSome: (item) => item.payload as ScoreEntry }))

  const store = Effect.fnUntraced(function*(entry: ScoreEntry) {
    const known = yield* events.current(place)
    const item = yield* outbox.append({ place, kind: "score", payload: entry, eventKey: known?.eventKey ?? null, createdAt: entry.timeStamp })
    change.remember(entry)
    yield* bus.publish({ _tag: "Entry", place, itemId: item.id, entry })
    yield* scheduler.wake
  })

  // For the status page: bytes that arrive but never decode must be told apart from silence.
  let bytesReceived = 0
  let lastActivityAt = -Infinity
  const reportActivity = (receivedAt: number) => {
    if (receivedAt - lastActivityAt < 1_000) return Effect.void
    lastActivityAt = receivedAt
    return bus.publish({ _tag: "Activity", place, receivedAt, bytes: bytesReceived, stats: { ...decoder.stats } })
  }

  // A redeliverable input (MQTT) is acknowledged only once its entries are stored, retrying
  // while the state directory cannot be written; a serial line cannot be asked again, so its
  // change stays pending in memory and the next reading with that score tries again.
  const storeFor = (chunk: ReceivedChunk) => (entry: ScoreEntry) =>
    chunk.ack === undefined
      ? store(entry).pipe(
        Effect.catch((e) => Effect.logError(`${place}: score change NOT stored, will retry on the next frame: ${String(e)}`))
      )
      : store(entry).pipe(
        Effect.tapError((e) => Effect.logError(`${place}: score change NOT stored, not acknowledged to the broker, retrying: ${String(e)}`)),
        Effect.retry(Schedule.spaced("1 second"))
      )

  yield* Stream.runForEach(chunks, (chunk) =>
    Effect.gen(function*() {
      const storeEntry = storeFor(chunk)
      bytesReceived += chunk.bytes.length
      yield* reportActivity(chunk.receivedAt)
      for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
        yield* bus.publish({ _tag: "Reading", place, reading, stats: decoder.stats })
        const entry = scoreEntryFor(sport, reading)
        if (entry === undefined || !change.isChange(entry)) continue
        yield* storeEntry(entry)
      }
      chunk.ack?.()
    }))
})
