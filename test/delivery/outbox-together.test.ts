import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { tempStateDirectory } from "./outbox-support.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

const fresh = () => Outbox.layer({ stateDirectory: tempStateDirectory() })

const auto = (n: number) => ({
  place: "court-1",
  kind: "click" as const,
  payload: clickPayload(1_000 + n, { source: "auto", rule: "score" }),
  dedupeKey: `click:auto-${n}`,
  createdAt: 1_000 + n,
  notBefore: 6_000 + n
})

describe("Outbox.appendAll: an entry and its auto-highlight together", () => {
  it.effect("stores every item, with its own notBefore", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const [score, click] = yield* outbox.appendAll([
        { place: "court-1", kind: "score", payload: { timeStamp: 1_001, left: 3, right: 0, period: 1 }, createdAt: 1_001 },
        auto(1)
      ])
      assert.strictEqual(score!.notBefore, 1_001)
      assert.strictEqual(click!.notBefore, 6_001)
      assert.isTrue(click!.id > score!.id)
    }).pipe(Effect.provide(fresh())))

  it.effect("stores none when one of them cannot be stored: no entry without its highlight", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const failed = yield* outbox.appendAll([
        { place: "court-1", kind: "score", payload: { timeStamp: 1_001, left: 3, right: 0, period: 1 }, createdAt: 1_001 },
        // A payload JSON cannot hold: the second statement throws inside the transaction.
        { ...auto(2), payload: Object.assign(clickPayload(1_002), { big: 1n }) }
      ]).pipe(Effect.flip)
      assert.strictEqual(failed._tag, "OutboxWriteError")
      assert.isTrue(Option.isNone(yield* outbox.lastOf("court-1", "score")))
      // The outbox is usable afterwards (the transaction was rolled back, not left open).
      yield* outbox.appendAll([auto(3)])
      assert.strictEqual((yield* outbox.recent("court-1", 10)).length, 1)
    }).pipe(Effect.provide(fresh())))
})

describe("Outbox.appendMerging: a press replaces auto-highlights", () => {
  it.effect("settles pending, unsent ones as merged into the press, in the same write; leaves one already sent alone", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const [unsent, sent] = yield* outbox.appendAll([auto(1), auto(2)])
      yield* outbox.markSending(sent!.id, "ev-1")
      const { item, merged } = yield* outbox.appendMerging(
        { place: "court-1", kind: "click", payload: clickPayload(1_003, { source: "remote" }), createdAt: 1_003 },
        [unsent!.id, sent!.id]
      )
      assert.deepStrictEqual(merged, [unsent!.id])
      const after = Option.getOrThrow(yield* outbox.get(unsent!.id))
      assert.strictEqual(after.state, "warning")
      assert.deepStrictEqual(after.result, { mergedInto: item.id })
      assert.match(after.lastError ?? "", /merged into press click #\d+/u)
      assert.strictEqual(Option.getOrThrow(yield* outbox.get(sent!.id)).state, "pending")
      assert.strictEqual(item.state, "pending")
    }).pipe(Effect.provide(fresh())))
})
