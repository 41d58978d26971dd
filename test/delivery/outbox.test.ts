import * as fs from "node:fs"
import * as path from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Outbox, type ItemKind } from "../../src/delivery/outbox.ts"
import { useOutbox, wholeOutbox } from "../support/whole-outbox.ts"
import { tempStateDirectory, withOutbox } from "./outbox-support.ts"
import { clickPayload, itemOfKind, scorePayload } from "../support/outbox-payloads.ts"

const fresh = () => Outbox.layer({ stateDirectory: tempStateDirectory() })

const appendOf = (place: string, kind: ItemKind, n: number, extra: { dedupeKey?: string; eventKey?: string } = {}) =>
  useOutbox((outbox) => outbox.append({ place, ...itemOfKind(kind, n), createdAt: 1_000 + n, ...extra }))

describe("Outbox.append / get", () => {
  it.effect("stores the item pending, with its payload, and returns increasing ids", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const first = yield* outbox.append({
        place: "court-1",
        kind: "score",
        payload: { timeStamp: 5, left: 1, right: 0, period: 1 },
        eventKey: "ev-1",
        createdAt: 5
      })
      const second = yield* appendOf("court-1", "click", 2)
      assert.isTrue(second.id > first.id)
      assert.deepStrictEqual(first, {
        id: first.id,
        place: "court-1",
        kind: "score",
        payload: { timeStamp: 5, left: 1, right: 0, period: 1 },
        eventKey: "ev-1",
        dedupeKey: null,
        createdAt: 5,
        attempts: 0,
        notBefore: 5,
        state: "pending",
        lastError: null,
        result: null,
        settledAt: null,
        sentAt: null,
        sentTo: null
      })
      assert.deepStrictEqual(yield* outbox.get(first.id), Option.some(first))
      assert.deepStrictEqual(yield* outbox.get(second.id + 1000), Option.none())
    }).pipe(Effect.provide(fresh())))

  it.effect("a second append with the same dedupe key returns the first item and writes nothing", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const first = yield* appendOf("court-1", "click", 1, { dedupeKey: "click-abc" })
      const again = yield* outbox.append({ place: "court-2", kind: "click", payload: clickPayload(99), dedupeKey: "click-abc", createdAt: 9 })
      assert.deepStrictEqual(again, first)
      const next = yield* appendOf("court-1", "click", 2)
      assert.strictEqual(next.id, first.id + 1, "a duplicate must not consume an id")
      const counts = yield* outbox.counts
      assert.deepStrictEqual(counts, [{ place: "court-1", kind: "click", state: "pending", count: 2 }])
    }).pipe(Effect.provide(fresh())))

  it.effect("a payload that is not JSON fails as a write error and stores nothing", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      // Its kind's fields are all there: the one JSON cannot hold is one the Schema does not name.
      const payload = Object.assign(scorePayload(1), { big: 1n })
      const error = yield* Effect.flip(outbox.append({ place: "p", kind: "score", payload, createdAt: 1 }))
      assert.strictEqual(error._tag, "OutboxWriteError")
      assert.include(error.message, "outbox.sqlite")
      assert.deepStrictEqual(yield* outbox.counts, [])
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox.heads", () => {
  it.effect("is the oldest pending item of each kind per place, ordered by id", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const a1 = yield* appendOf("court-a", "score", 1)
      const b1 = yield* appendOf("court-b", "click", 2)
      yield* appendOf("court-a", "score", 3)
      const a2 = yield* appendOf("court-a", "click", 4)
      yield* appendOf("court-b", "click", 5)
      const b2 = yield* appendOf("court-b", "undo", 6)
      const c1 = yield* appendOf("court-c", "score", 7)
      assert.deepStrictEqual((yield* outbox.heads).map((item) => item.id), [a1.id, b1.id, a2.id, b2.id, c1.id])
    }).pipe(Effect.provide(fresh())))

  it.effect("Outbox.lanes names the same lanes and head ids, without the items", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      yield* appendOf("court-a", "score", 1)
      const b1 = yield* appendOf("court-b", "click", 2)
      yield* appendOf("court-a", "score", 3)
      yield* appendOf("court-a", "click", 4)
      yield* appendOf("court-b", "undo", 5)
      yield* appendOf("court-c", "score", 6)
      yield* outbox.markDelivered(b1.id, { eventKey: "ev", key: "k1" })
      const heads = (yield* outbox.heads).map((item) => ({ place: item.place, kind: item.kind, headId: item.id }))
      assert.deepStrictEqual(yield* outbox.lanes, heads)
      assert.deepStrictEqual(heads.map((lane) => `${lane.place} ${lane.kind}`), ["court-a score", "court-a click", "court-b undo", "court-c score"])
    }).pipe(Effect.provide(fresh())))

  it.effect("moves to the next item when the head settles, and keeps a rescheduled head", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const first = yield* appendOf("court-1", "score", 1)
      const second = yield* appendOf("court-1", "score", 2)
      const third = yield* appendOf("court-1", "score", 3)
      const fourth = yield* appendOf("court-1", "score", 4)
      const idsOfHeads = Effect.map(outbox.heads, (items) => items.map((item) => item.id))

      yield* outbox.reschedule(first.id, "HTTP 503", 60_000)
      const [rescheduled] = yield* outbox.heads
      assert.strictEqual(rescheduled?.id, first.id)
      assert.strictEqual(rescheduled?.attempts, 1)
      assert.strictEqual(rescheduled?.notBefore, 60_000)
      assert.strictEqual(rescheduled?.lastError, "HTTP 503")

      yield* outbox.markDelivered(first.id, { eventKey: "ev", key: "k1" })
      assert.deepStrictEqual(yield* idsOfHeads, [second.id])
      yield* outbox.markDead(second.id, "HTTP 400 bad score")
      assert.deepStrictEqual(yield* idsOfHeads, [third.id])
      yield* outbox.markWarning(third.id, "no event running")
      assert.deepStrictEqual(yield* idsOfHeads, [fourth.id])
      yield* outbox.markMissed(fourth.id, "footage expired")
      assert.deepStrictEqual(yield* idsOfHeads, [])
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox settling", () => {
  it.effect("records state, attempts, error, result and settle time", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      yield* TestClock.setTime(777_000)
      const delivered = yield* appendOf("p", "click", 1)
      const warned = yield* appendOf("p", "score", 2)
      const dead = yield* appendOf("p", "undo", 3)
      const missed = yield* appendOf("p", "click", 4)
      yield* outbox.reschedule(delivered.id, "timeout", 1)
      yield* outbox.markDelivered(delivered.id, { momentKey: "m-1" })
      yield* outbox.markWarning(warned.id, "no event running", { note: "answered 200" })
      yield* outbox.markDead(dead.id, "HTTP 404 moment not found")
      yield* outbox.markMissed(missed.id, "footage expired")

      const read = (id: number) => Effect.map(outbox.get(id), Option.getOrThrow)
      const d = yield* read(delivered.id)
      assert.deepInclude(d, { state: "delivered", attempts: 2, lastError: null, settledAt: 777_000 })
      assert.deepStrictEqual(d.result, { momentKey: "m-1" })
      const w = yield* read(warned.id)
      assert.deepInclude(w, { state: "warning", attempts: 1, lastError: "no event running", settledAt: 777_000 })
      assert.deepStrictEqual(w.result, { note: "answered 200" })
      assert.deepInclude(yield* read(dead.id), { state: "dead", attempts: 1, lastError: "HTTP 404 moment not found", result: null })
      assert.deepInclude(yield* read(missed.id), { state: "missed", attempts: 0, lastError: "footage expired", settledAt: 777_000 })
    }).pipe(Effect.provide(fresh())))

  it.effect("setEventKey fills in the event learned after capture", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const item = yield* appendOf("p", "score", 1)
      yield* outbox.setEventKey(item.id, "ev-42")
      assert.strictEqual(Option.getOrThrow(yield* outbox.get(item.id)).eventKey, "ev-42")
    }).pipe(Effect.provide(fresh())))

  it.effect("every update of an unknown id fails instead of doing nothing", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const updates = [
        outbox.markDelivered(404, {}),
        outbox.markWarning(404, "w"),
        outbox.markDead(404, "d"),
        outbox.markMissed(404, "m"),
        outbox.reschedule(404, "r", 1),
        outbox.setEventKey(404, "e")
      ]
      for (const update of updates) {
        const error = yield* Effect.flip(update)
        assert.strictEqual(error._tag, "OutboxWriteError")
        assert.include(error.message, "no item 404")
      }
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox queries", () => {
  it.effect("lastOf is the latest item of that kind on that place, whatever its state", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      yield* appendOf("p", "score", 1)
      const latest = yield* appendOf("p", "score", 2)
      yield* appendOf("p", "click", 3)
      yield* appendOf("q", "score", 4)
      yield* outbox.markDelivered(latest.id, null)
      assert.strictEqual(Option.getOrThrow(yield* outbox.lastOf("p", "score")).id, latest.id)
      assert.isTrue(Option.isNone(yield* outbox.lastOf("p", "undo")))
      assert.isTrue(Option.isNone(yield* outbox.lastOf("nowhere", "score")))
    }).pipe(Effect.provide(fresh())))

  it.effect("counts, recent and deadLetters", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const items = []
      for (let n = 0; n < 6; n++) items.push(yield* appendOf(n % 2 === 0 ? "p" : "q", "score", n))
      yield* outbox.markDead(items[0]!.id, "400")
      yield* outbox.markDead(items[3]!.id, "403")
      yield* outbox.markDelivered(items[2]!.id, {})

      assert.deepStrictEqual(yield* outbox.counts, [
        { place: "p", kind: "score", state: "dead", count: 1 },
        { place: "p", kind: "score", state: "delivered", count: 1 },
        { place: "p", kind: "score", state: "pending", count: 1 },
        { place: "q", kind: "score", state: "dead", count: 1 },
        { place: "q", kind: "score", state: "pending", count: 2 }
      ])
      assert.deepStrictEqual((yield* outbox.recent("p", 2)).map((item) => item.id), [items[4]!.id, items[2]!.id])
      assert.deepStrictEqual((yield* outbox.deadLetters(10)).map((item) => item.id), [items[3]!.id, items[0]!.id])
      assert.deepStrictEqual((yield* outbox.deadLetters(1)).map((item) => item.id), [items[3]!.id])
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox.prune", () => {
  it.effect("deletes only delivered and warning items settled before the cut-off", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const states = ["delivered", "warning", "dead", "missed", "pending"] as const
      const old = []
      yield* TestClock.setTime(1_000)
      for (const state of states) old.push({ state, item: yield* appendOf("p", "score", old.length) })
      yield* outbox.markDelivered(old[0]!.item.id, {})
      yield* outbox.markWarning(old[1]!.item.id, "no event running")
      yield* outbox.markDead(old[2]!.item.id, "400")
      yield* outbox.markMissed(old[3]!.item.id, "expired")
      yield* TestClock.setTime(5_000)
      const recent = yield* appendOf("p", "score", 9)
      yield* outbox.markDelivered(recent.id, {})

      assert.strictEqual(yield* outbox.prune(5_000), 2)
      const left = (yield* outbox.recent("p", 10)).map((item) => item.state)
      assert.deepStrictEqual(left, ["delivered", "pending", "missed", "dead"])
      assert.strictEqual(yield* outbox.prune(5_000), 0)
    }).pipe(Effect.provide(fresh())))

  it.effect("never lets an id be reused, even when the newest items were pruned", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const newest = yield* appendOf("p", "score", 1)
      yield* outbox.markDelivered(newest.id, {})
      yield* TestClock.adjust(10)
      assert.strictEqual(yield* outbox.prune(Number.MAX_SAFE_INTEGER), 1)
      const next = yield* appendOf("p", "score", 2)
      assert.isTrue(next.id > newest.id)
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox lifetime", () => {
  it.effect("keeps items across reopening and closes the file when the layer is released", () =>
    Effect.gen(function*() {
      const stateDirectory = tempStateDirectory()
      const written = yield* withOutbox(stateDirectory, (outbox) =>
        outbox.append({ place: "p", kind: "undo", payload: { clickItemId: 9 }, createdAt: 3 }))
      // SQLite removes the -wal file when the last connection closes cleanly.
      assert.isFalse(fs.existsSync(path.join(stateDirectory, "outbox.sqlite-wal")))
      const reread = yield* withOutbox(stateDirectory, (outbox) => outbox.get(written.id))
      assert.deepStrictEqual(reread, Option.some(written))
    }))
})

describe("attempts in doubt", () => {
  it.effect("markSending leaves the item in doubt; a definite failure clears it, an unknown outcome keeps it", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const item = yield* appendOf("court-1", "score", 1)
      yield* outbox.markSending(item.id, "ev-1")
      const sent = Option.getOrThrow(yield* outbox.get(item.id))
      assert.strictEqual(sent.sentTo, "ev-1")
      assert.isNumber(sent.sentAt)
      yield* outbox.reschedule(item.id, "reset after the request was written", 0, true)
      assert.strictEqual(Option.getOrThrow(yield* outbox.get(item.id)).sentTo, "ev-1")
      yield* outbox.reschedule(item.id, "503 Service Unavailable", 0, false)
      const cleared = Option.getOrThrow(yield* outbox.get(item.id))
      assert.strictEqual(cleared.sentAt, null)
      assert.strictEqual(cleared.sentTo, null)
      assert.strictEqual(cleared.attempts, 2)
    }).pipe(Effect.provide(fresh())))
})
