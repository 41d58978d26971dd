import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { handlePress, type PlaceClickSettings, type PressAction } from "../../src/clicks/press-handler.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { useOutbox } from "../support/whole-outbox.ts"
import type { ButtonEvent } from "../../src/domain/button.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { tempStateDirectory } from "../delivery/outbox-support.ts"

const settings = (place: string): PlaceClickSettings => ({
  place,
  window: undefined,
  undoWithinMs: 120_000,
  mergeMs: 0,
  overlayFor: () => ({})
})
const highlight: PressAction = { do: "highlight", team: "home" }
const undo: PressAction = { do: "undo" }

/** A Shelly Gen1 press as its decoder gives it: stamped on receipt, its event_cnt as identity. */
const gen1Press = (count: number, pressedAt: number): ButtonEvent => ({
  source: "remote",
  button: "0",
  gesture: "single",
  pressedAt,
  identity: { slot: "remote shellies/b1/input_event/0", identity: String(count) }
})

/**
 * One run of the bridge on `stateDirectory`: the outbox is opened for `body` and closed after it,
 * so the next run reads only what this one left on disk, as a process started after a kill would.
 */
const run = <A, E>(stateDirectory: string, body: Effect.Effect<A, E, Outbox | ActiveEvents | LatestBoard>) =>
  body.pipe(Effect.provide(Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, LatestBoard.layer)))

const items = (place: string) => useOutbox((outbox) => outbox.recent(place, 100))

describe("press identities in the press handler", () => {
  it.effect("a press re-published after a restart with the count of the last click makes no second click; the next count does", () =>
    Effect.gen(function*() {
      const dir = tempStateDirectory()
      const first = yield* run(dir, handlePress(settings("court-1"), gen1Press(7, 1_000), highlight))
      assert.strictEqual(first._tag, "Queued")

      // The device re-publishes count 7 some seconds later, to a new process: its receive time differs.
      const again = yield* run(dir, Effect.gen(function*() {
        const result = yield* handlePress(settings("court-1"), gen1Press(7, 9_000), highlight)
        return { result, items: yield* items("court-1") }
      }))
      assert.deepStrictEqual(again.result, { _tag: "Repeat", identity: "7" })
      assert.strictEqual(again.items.length, 1)

      const next = yield* run(dir, Effect.gen(function*() {
        const result = yield* handlePress(settings("court-1"), gen1Press(8, 12_000), highlight)
        return { result, items: yield* items("court-1") }
      }))
      assert.strictEqual(next.result._tag, "Queued")
      assert.deepStrictEqual(next.items.map((item) => item.kind), ["click", "click"])
      assert.strictEqual(yield* run(dir, useOutbox((outbox) => outbox.pressIdentity("court-1 remote shellies/b1/input_event/0"))), "8")
    }))

  it.effect("the identity is kept per place: a press mapped to two places makes a click at each, its repeat none at either", () =>
    Effect.gen(function*() {
      const dir = tempStateDirectory()
      const results = yield* run(dir, Effect.gen(function*() {
        const a = yield* handlePress(settings("court-1"), gen1Press(3, 1_000), highlight)
        const b = yield* handlePress(settings("court-2"), gen1Press(3, 1_000), highlight)
        const repeatA = yield* handlePress(settings("court-1"), gen1Press(3, 5_000), highlight)
        const repeatB = yield* handlePress(settings("court-2"), gen1Press(3, 5_000), highlight)
        return [a._tag, b._tag, repeatA._tag, repeatB._tag, (yield* items("court-1")).length, (yield* items("court-2")).length]
      }))
      assert.deepStrictEqual(results, ["Queued", "Queued", "Repeat", "Repeat", 1, 1])
    }))

  it.effect("a press that made no item stores no identity: with no event running, then nothing to undo", () =>
    Effect.gen(function*() {
      const dir = tempStateDirectory()
      const results = yield* run(dir, Effect.gen(function*() {
        const events = yield* ActiveEvents
        yield* events.learn("court-1", null)
        const noEvent = yield* handlePress(settings("court-1"), gen1Press(4, 1_000), highlight)
        const nothingToUndo = yield* handlePress(settings("court-1"), gen1Press(4, 1_000), undo)
        const slot = yield* useOutbox((outbox) => outbox.pressIdentity("court-1 remote shellies/b1/input_event/0"))
        // The event starts; the device re-publishes count 4, which never made anything.
        yield* events.learn("court-1", "ev-1")
        const afterStart = yield* handlePress(settings("court-1"), gen1Press(4, 2_000), highlight)
        return [noEvent._tag, nothingToUndo._tag, slot, afterStart._tag]
      }))
      assert.deepStrictEqual(results, ["NoEvent", "NothingToUndo", undefined, "Queued"])
    }))

  it.effect("an undo press is stored with its identity too, and its repeat undoes nothing more", () =>
    Effect.gen(function*() {
      const dir = tempStateDirectory()
      yield* run(dir, handlePress(settings("court-1"), gen1Press(1, 1_000), highlight))
      const undone = yield* run(dir, handlePress(settings("court-1"), gen1Press(2, 2_000), undo))
      assert.strictEqual(undone._tag, "UndoQueued")
      const repeat = yield* run(dir, Effect.gen(function*() {
        const result = yield* handlePress(settings("court-1"), gen1Press(2, 6_000), undo)
        return { result, kinds: (yield* items("court-1")).map((item) => item.kind) }
      }))
      assert.deepStrictEqual(repeat, { result: { _tag: "Repeat", identity: "2" }, kinds: ["undo", "click"] })
    }))

  it.effect("a press without an identity (zigbee2mqtt, input-event, gpiomon) is never taken for a repeat", () =>
    Effect.gen(function*() {
      const dir = tempStateDirectory()
      const press = (pressedAt: number): ButtonEvent => ({ source: "remote", button: "1", gesture: "single", pressedAt })
      const results = yield* run(dir, Effect.gen(function*() {
        const a = yield* handlePress(settings("court-1"), press(1_000), highlight)
        const b = yield* handlePress(settings("court-1"), press(2_000), highlight)
        return [a._tag, b._tag, (yield* items("court-1")).length]
      }))
      assert.deepStrictEqual(results, ["Queued", "Queued", 2])
    }))
})
