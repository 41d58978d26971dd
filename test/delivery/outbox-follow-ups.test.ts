import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Outbox } from "../../src/delivery/outbox.ts"
import { useOutbox, wholeOutbox } from "../support/whole-outbox.ts"
import { tempStateDirectory } from "./outbox-support.ts"
import { clickPayload, scorePayload } from "../support/outbox-payloads.ts"

const following = () => Outbox.layer({ stateDirectory: tempStateDirectory(), followUps: { firstReadAfterMs: 10_000 } })

const click = (place = "court-1", createdAt = 1_000) =>
  useOutbox((outbox) => outbox.append({ place, kind: "click", payload: clickPayload(createdAt), createdAt }))

describe("Outbox follow-ups", () => {
  it.effect("a click delivered with a moment gets a follow-up in the same commit, first read after the delay", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      yield* TestClock.setTime(5_000)
      const item = yield* click()
      yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey: "mo-1" })
      const followUp = yield* outbox.followUpOf(item.id)
      assert.deepStrictEqual(followUp, {
        clickId: item.id,
        place: "court-1",
        momentKey: "mo-1",
        pressedAt: 1_000,
        acceptedAt: 5_000,
        reads: 0,
        nextReadAt: 15_000,
        outcome: null,
        detail: null,
        lastError: null,
        settledAt: null
      })
      assert.deepStrictEqual(yield* outbox.dueFollowUps(14_999, 10), [])
      assert.deepStrictEqual((yield* outbox.dueFollowUps(15_000, 10)).map((f) => f.clickId), [item.id])
      assert.strictEqual(yield* outbox.nextFollowUpAt, 15_000)
      assert.strictEqual(yield* outbox.openFollowUps, 1)
    }).pipe(Effect.provide(following())))

  it.effect("missed and 206 clicks with a moment are followed; scores, dead clicks and clicks without a moment are not", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const missed = yield* click("court-1", 1)
      const partial = yield* click("court-1", 2)
      const dead = yield* click("court-1", 3)
      const none = yield* click("court-1", 4)
      const score = yield* outbox.append({ place: "court-1", kind: "score", payload: scorePayload(1, 5), createdAt: 5 })
      yield* outbox.markMissed(missed.id, "late", { eventKey: "ev", momentKey: "mo-missed" })
      yield* outbox.markWarning(partial.id, "206", { eventKey: "ev", momentKey: "mo-206", error: "metadata" })
      yield* outbox.markDead(dead.id, "400")
      yield* outbox.markWarning(none.id, "no event running")
      yield* outbox.markDelivered(score.id, { eventKey: "ev", momentKey: "not-a-click" })
      const followed = (yield* outbox.followUpsOf("court-1", 10)).map((f) => [f.clickId, f.momentKey])
      assert.deepStrictEqual(followed, [[partial.id, "mo-206"], [missed.id, "mo-missed"]])
    }).pipe(Effect.provide(following())))

  it.effect("without the option no follow-up is made", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const item = yield* click()
      yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey: "mo-1" })
      assert.strictEqual(yield* outbox.followUpOf(item.id), undefined)
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: tempStateDirectory() }))))

  it.effect("reads move the next read; a settlement is final, and a second one is refused", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const item = yield* click()
      yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey: "mo-1" })
      yield* outbox.followUpRead(item.id, 40_000, "503 from the service")
      const read = yield* outbox.followUpOf(item.id)
      assert.strictEqual(read?.reads, 1)
      assert.strictEqual(read?.nextReadAt, 40_000)
      assert.strictEqual(read?.lastError, "503 from the service")
      yield* TestClock.setTime(41_000)
      const detail = { angles: 2, videoURL: "http://media/cl-1.mp4", readyAt: 41_000 }
      assert.isTrue(yield* outbox.settleFollowUp(item.id, "clip-ready", detail, { read: true }))
      assert.isFalse(yield* outbox.settleFollowUp(item.id, "no-clip", {}, { read: true }))
      const settled = yield* outbox.followUpOf(item.id)
      assert.strictEqual(settled?.outcome, "clip-ready")
      assert.deepStrictEqual(settled?.detail, detail)
      assert.strictEqual(settled?.reads, 2)
      assert.strictEqual(settled?.settledAt, 41_000)
      assert.deepStrictEqual(yield* outbox.dueFollowUps(1e12, 10), [])
      assert.strictEqual(yield* outbox.nextFollowUpAt, undefined)
    }).pipe(Effect.provide(following())))

  it.effect("an undo that deleted the moment settles its click's follow-up as deleted, even after a clip was seen", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const open = yield* click("court-1", 1)
      const ready = yield* click("court-1", 2)
      yield* outbox.markDelivered(open.id, { eventKey: "ev", momentKey: "mo-open" })
      yield* outbox.markDelivered(ready.id, { eventKey: "ev", momentKey: "mo-ready" })
      yield* outbox.settleFollowUp(ready.id, "clip-ready", { angles: 1, videoURL: "v" }, { read: true })
      for (const target of [open, ready]) {
        const undo = yield* outbox.append({ place: "court-1", kind: "undo", payload: { clickItemId: target.id }, createdAt: 9 })
        yield* outbox.markDelivered(undo.id, { deletedMomentKey: "x", clickItemId: target.id })
        const followUp = yield* outbox.followUpOf(target.id)
        assert.strictEqual(followUp?.outcome, "deleted")
        assert.include(followUp?.detail?.reason ?? "", `undo #${undo.id}`)
      }
    }).pipe(Effect.provide(following())))

  it.effect("prune removes settled follow-ups with their clicks, never open ones", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      yield* TestClock.setTime(1_000)
      const settled = yield* click("court-1", 1)
      const open = yield* click("court-1", 2)
      yield* outbox.markDelivered(settled.id, { eventKey: "ev", momentKey: "mo-1" })
      yield* outbox.markDelivered(open.id, { eventKey: "ev", momentKey: "mo-2" })
      yield* outbox.settleFollowUp(settled.id, "no-clip", {}, { read: true })
      yield* outbox.prune(2_000)
      assert.strictEqual(yield* outbox.followUpOf(settled.id), undefined)
      assert.strictEqual((yield* outbox.followUpOf(open.id))?.outcome, null)
    }).pipe(Effect.provide(following())))
})

describe("Outbox press identities", () => {
  it.effect("an identity is stored with its press's item and replaced by the next one of its slot", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      assert.strictEqual(yield* outbox.pressIdentity("shelly:input_event/0"), undefined)
      yield* outbox.append({ place: "p", kind: "click", payload: clickPayload(1), createdAt: 1, pressIdentity: { slot: "shelly:input_event/0", identity: "7" } })
      assert.strictEqual(yield* outbox.pressIdentity("shelly:input_event/0"), "7")
      yield* outbox.appendMerging({ place: "p", kind: "click", payload: clickPayload(2), createdAt: 2, pressIdentity: { slot: "shelly:input_event/0", identity: "8" } }, [])
      assert.strictEqual(yield* outbox.pressIdentity("shelly:input_event/0"), "8")
      assert.strictEqual(yield* outbox.pressIdentity("shelly:input_event/1"), undefined)
    }).pipe(Effect.provide(following())))

  it.effect("an append that fails stores no identity", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const failed = yield* outbox.append({
        place: "p",
        kind: "click",
        // Not a time: JSON would store it as null, and the click could never be read back.
        payload: clickPayload(Number.NaN),
        createdAt: 1,
        pressIdentity: { slot: "s", identity: "1" }
      }).pipe(Effect.flip)
      assert.include(failed.message, "payload")
      assert.strictEqual(yield* outbox.pressIdentity("s"), undefined)
    }).pipe(Effect.provide(following())))
})
