import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import { emptyStats } from "../../adapters/decoder.ts"
import { BridgeEvents, type BridgeEvent } from "../../src/bus/bridge-events.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { StatusJson } from "../../src/status/json/status-json.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { writeRollbackRecord } from "../../src/upgrade/rollback-record.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { acceptedClick, clipsModelLayer, settleClick } from "./clips-model.ts"
import { finish, finishClick, finishEvent, raceReading } from "./race-events.ts"

/**
 * `/status.json` is its Schema: every field the status model puts in a snapshot is one the Schema
 * names, as it names it, so the server's encoding drops nothing and its readers (which pick from the
 * same Schema) read what the model made. The model on real parts (outbox with follow-ups, bus,
 * rate budget, a rollback record on disk), fed every kind of event a card shows.
 */

const t0 = Date.UTC(2026, 4, 2, 18, 0, 0)
const packageDirectory = join(tempDir("status-json-package"), "scorebridge-package")

const options: StatusOptions = {
  places: [
    { key: "court-1", name: "Court 1", sport: "tennis", scoreboard: { link: "serial", target: "/dev/ttyCOURT1" }, buttonSources: ["remote"] },
    { key: "pool", name: "Pool", sport: "swimming", scoreboard: { link: "tcp", target: "listen 0.0.0.0:4001" }, buttonSources: [] },
    { key: "hall", buttonSources: ["remote"] }
  ],
  buttons: [{ name: "remote", overMqtt: false }],
  mqtt: true,
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 60_000 },
  clips: { followUp: true, problemAfterClicks: 1 },
  rollbackFile: join(packageDirectory, "rollback.json")
}

/** A reading with every field a console may send, the optional ones included. */
const fullReading: Reading = {
  receivedAt: t0,
  home: 2,
  away: 1,
  period: 3,
  sets: [[6, 4], [3, 6], [2, 1]],
  setsWon: [1, 1],
  gamePoints: ["AD", 40],
  tieBreak: false,
  serve: "home",
  clock: "12:34",
  penalties: { home: [{ player: 7, remaining: "1:00" }], away: [{ remaining: "0:45" }] },
  teamFouls: [3, 4],
  timeouts: [1, 0],
  shown: [{ label: "shot clock", text: "24" }]
}

const events = (lateAt: number): ReadonlyArray<BridgeEvent> => [
  { _tag: "Link", place: "court-1", state: { _tag: "disconnected", target: "/dev/ttyCOURT1", reason: "cannot open /dev/ttyCOURT1: No such file or directory", retryInMs: 1000 } },
  { _tag: "Link", place: "court-1", state: { _tag: "connected", target: "/dev/ttyCOURT1" } },
  { _tag: "Reading", place: "court-1", reading: fullReading, stats: { ...emptyStats(), frames: 40, badFrames: 2, overlong: 1, skippedBytes: 9 } },
  { _tag: "Entry", place: "court-1", itemId: 901, entry: { timeStamp: t0, left: 2, right: 1, period: 3, scoreValue: { gameScores: [[6, 4]], pointScore: [3, 2] } } },
  { _tag: "Settled", place: "court-1", itemId: 901, kind: "score", outcome: { _tag: "Warning", warning: "score older than the event's last" } },
  {
    _tag: "Press",
    place: "hall",
    press: { source: "remote", button: "1", gesture: "single", pressedAt: lateAt },
    result: { _tag: "Queued", itemId: 902, clickId: "c-902", late: { after: lateAt - 5_000, arrivedAt: lateAt + 2_000, startTime: lateAt - 20_000, endTime: lateAt + 8_000 } }
  },
  raceReading("pool", t0, { clock: "1:02.3", clockMs: 62_300, event: 12, heat: 3, lanes: [{ lane: 4, state: "stopped", place: 1, time: "28.91", timeMs: 28_910 }, { lane: 5, state: "running" }] })
]

/** The JSON as JSON.stringify makes it of whatever the model holds: the reference the Schema's encoding must equal. */
const plainJson = (snapshot: StatusSnapshot): unknown => JSON.parse(JSON.stringify(snapshot))

const richSnapshot = Effect.gen(function*() {
  yield* TestClock.setTime(t0)
  const bus = yield* BridgeEvents
  const outbox = yield* wholeOutbox
  const raced = finish(4, 1, "28.91", 28_910, t0 - 60_000)
  const finishItem = yield* outbox.append({ place: "pool", kind: "click", payload: finishClick(raced), createdAt: raced.at })
  const clipped = yield* acceptedClick("hall", t0 - 30_000, "moment-7")
  yield* settleClick(clipped, "no-clip", { reason: "no camera recorded it", readyAt: t0 })
  for (const event of [...events(t0 - 1_000), finishEvent("pool", raced, finishItem.id)]) yield* bus.publish(event)
  const status = yield* BridgeStatus
  for (let i = 0; i < 200; i++) {
    const snapshot = yield* status.snapshot
    const [court, pool, hall] = snapshot.places
    if (court?.lastEntry?.answer.state === "warning" && pool?.race?.finishes.length === 1 && hall?.lastPress !== null && hall?.clipProblem !== null) return snapshot
    yield* Effect.yieldNow
  }
  return assert.fail(`the snapshot never showed every card part: ${JSON.stringify(yield* status.snapshot, null, 1)}`)
})

describe("/status.json's Schema", () => {
  it.effect("encodes a snapshot the model makes, every part of a card filled in, to exactly its JSON, and decodes it back", () =>
    Effect.gen(function*() {
      yield* writeRollbackRecord(packageDirectory, {
        at: new Date(t0 - 3_600_000).toISOString(), from: "0.1.0", to: "0.2.0", reason: "restarted 4 times", reasonKind: "restart_loop", reinstalled: true, held: true
      })
      const snapshot = yield* richSnapshot
      const [court, pool, hall] = snapshot.places
      // The parts the round trip is about are there, so a field missing from the Schema shows.
      assert.deepStrictEqual([court!.lastReading, court!.decoder.skippedBytes, court!.errors.length > 0], [fullReading, 9, true])
      assert.strictEqual(pool!.race!.finishes[0]!.answer?.state, "queued")
      assert.deepInclude(hall!.lastPress!.late!, { after: t0 - 6_000 })
      assert.strictEqual(hall!.lastClick!.outcome, "no-clip")
      assert.isNotNull(snapshot.rollback)
      assert.isNotEmpty(snapshot.links)

      const encoded = Schema.encodeSync(StatusJson)(snapshot)
      assert.deepStrictEqual(JSON.parse(JSON.stringify(encoded)), plainJson(snapshot))
      const served = Schema.encodeSync(Schema.fromJsonString(StatusJson))(snapshot)
      assert.deepStrictEqual(plainJson(Schema.decodeUnknownSync(Schema.fromJsonString(StatusJson))(served)), plainJson(snapshot))
    }).pipe(Effect.provide(clipsModelLayer(tempDir("status-json"), options, 8_000))))

  it("refuses what is not a snapshot, naming the field", () => {
    const decoded = Schema.decodeUnknownResult(Schema.fromJsonString(StatusJson))(JSON.stringify({ generatedAt: 1, places: "none" }))
    assert.isTrue(Result.isFailure(decoded))
    assert.match(String(Result.isFailure(decoded) ? decoded.failure : ""), /\["startedAt"\]/u)
  })
})
