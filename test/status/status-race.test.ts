import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { BridgeEvents, type BridgeEvent } from "../../src/bus/bridge-events.ts"
import type { Finish } from "../../src/domain/race.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import type { FinishStatus, PlaceStatus, StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { clickPayload } from "../support/outbox-payloads.ts"
import { clipsModelLayer, settleClick } from "./clips-model.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { finish, finishClick, finishEvent, raceReading } from "./race-events.ts"

/**
 * A pool's card on the status model: the real outbox (clicks, follow-ups), the bus fed by hand
 * with what the colorado-cts decoder and the race tracker publish (readings carrying the board's
 * race, Finish events naming their clicks), and what the snapshot and /metrics make of them.
 */

const options: StatusOptions = {
  places: [{ key: "pool", name: "Pool", sport: "swimming", scoreboard: { link: "serial", target: "/dev/ttyPOOL" }, buttonSources: [] }],
  buttons: [],
  mqtt: false,
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 3_600_000 },
  clips: { followUp: true, problemAfterClicks: 3 }
}

const t0 = Date.UTC(2025, 5, 14, 14, 0, 0)
const previousStart = t0 - 5 * 60_000
const start = t0 + 60_000
const videoURL = "https://media.example/clips/lane-4/angle-0.mp4"

const publish = (event: BridgeEvent) => BridgeEvents.use((bus) => bus.publish(event))

/** Polls the snapshot until `check` accepts it: the model follows the bus on its own fiber. */
const until = <A>(what: string, check: (pool: PlaceStatus) => A | undefined) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
    let last: StatusSnapshot | undefined
    for (let i = 0; i < 200; i++) {
      last = yield* status.snapshot
      const found = check(last.places[0]!)
      if (found !== undefined) return found
      yield* Effect.yieldNow
    }
    return assert.fail(`the pool's card never showed ${what}: ${JSON.stringify(last?.places[0], null, 1)}`)
  })

const finishesCounted = Effect.gen(function*() {
  const metrics = parsePrometheus(yield* (yield* BridgeStatus).metrics)
  return valueOf(metrics, "scorebridge_finishes_total", { place: "pool" })
})

/** A finish click in the outbox, as the `finish` rule queues it; `then` settles it as the scheduler would. */
const queued = (f: Finish, then: "pending" | "accepted" | "dead" = "pending") =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const item = yield* outbox.append({ place: "pool", kind: "click", payload: finishClick(f), createdAt: f.at })
    if (then === "accepted") yield* outbox.markDelivered(item.id, { eventKey: "meet-1", momentKey: `mo-${f.lane}` })
    if (then === "dead") yield* outbox.markDead(item.id, "HTTP 400: window outside the event")
    return item.id
  })

const lanes = (race: ReadonlyArray<FinishStatus>) => race.map((f) => [f.race, f.place, f.lane, f.time])

describe("the status card of a pool", () => {
  it.effect("shows the board's event, heat, clock and phase, the last finishes by place with their clicks' fate, and counts them", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(t0)
      // The race before, seen by the tracker before the restart of nothing: two finishes, no clicks.
      for (const f of [finish(2, 1, "29.10", 29_100, previousStart, { event: 11, heat: 1 }), finish(6, 2, "29.55", 29_550, previousStart, { event: 11, heat: 1 })]) {
        yield* publish(finishEvent("pool", f))
      }
      // Before the start: the clock reset, the next race's event and heat.
      yield* publish(raceReading("pool", t0, { clock: "0.0", clockMs: 0, event: 12, heat: 3 }))
      const waiting = yield* until("the reset clock", (p) => p.race?.phase === "waiting" && p.race.finishes.length === 2 ? p : undefined)
      assert.strictEqual(waiting.lastReadingText, "Event 12 · Heat 3 · 0.0")
      assert.deepInclude(waiting.race!, { event: 12, heat: 3, clock: "0.0", blanked: false })
      assert.deepStrictEqual(lanes(waiting.race!.finishes), [[0, 1, 2, "29.10"], [0, 2, 6, "29.55"]])
      assert.strictEqual(yield* finishesCounted, 2)

      yield* publish(raceReading("pool", start + 31_400, { clock: "31.2", clockMs: 31_200, event: 12, heat: 3 }))
      yield* until("the race running", (p) => p.race?.phase === "running" && p.race.clock === "31.2" ? true : undefined)

      const first = finish(4, 1, "28.91", 28_910, start)
      const second = finish(5, 2, "29.40", 29_400, start)
      const third = finish(3, 3, "30.02", 30_020, start)
      const fourth = finish(6, 4, "30.50", 30_500, start)
      const fifth = finish(2, 5, "31.87", 31_870, start)
      const firstClick = yield* queued(first, "accepted")
      yield* settleClick(firstClick, "clip-ready", { angles: 2, videoURL, readyAt: first.at + 12_000 })
      const secondClick = yield* queued(second, "accepted")
      const thirdClick = yield* queued(third)
      const fourthClick = yield* queued(fourth, "dead")
      // The 2nd place settled on the console before the winner: the card still lists the winner first.
      yield* publish(finishEvent("pool", second, secondClick))
      yield* publish(finishEvent("pool", first, firstClick))
      yield* publish(finishEvent("pool", third, thirdClick))
      yield* publish(finishEvent("pool", fourth, fourthClick))
      // No rule selected it (e.g. `places: 4`): a finish without a click.
      yield* publish(finishEvent("pool", fifth))

      const racing = yield* until("five finishes of this race", (p) => p.race?.finishes.filter((f) => f.race === 0).length === 5 ? p.race : undefined)
      assert.deepStrictEqual(lanes(racing.finishes), [
        [0, 1, 4, "28.91"], [0, 2, 5, "29.40"], [0, 3, 3, "30.02"], [0, 4, 6, "30.50"], [0, 5, 2, "31.87"],
        [1, 1, 2, "29.10"], [1, 2, 6, "29.55"]
      ])
      const [won, silver, bronze, dead, noClick] = racing.finishes
      assert.deepInclude(won!, { event: 12, heat: 3, at: start + 28_910, timeMs: 28_910, clickItemId: firstClick, swimmer: null })
      assert.strictEqual(won!.answer?.state, "delivered")
      assert.deepInclude(won!.clip!, { itemId: firstClick, outcome: "clip-ready", text: "clip ready in 12 s, 2 angles", videoURL })
      // Accepted, its clip awaited: the follow-up's words, as on the Clip line.
      assert.deepInclude(silver!.clip!, { itemId: secondClick, outcome: null, videoURL: null })
      assert.include(silver!.clip!.text, "waiting for its clip")
      assert.isNull(bronze!.clip)
      assert.deepInclude(bronze!.answer!, { state: "queued", detail: null })
      assert.deepInclude(dead!.answer!, { state: "dead", detail: "HTTP 400: window outside the event" })
      assert.deepInclude(noClick!, { clickItemId: null, answer: null, clip: null })
      assert.strictEqual(yield* finishesCounted, 7)

      // Three more touches: the race's 8 fill the card, the race before leaves it.
      for (const f of [finish(1, 6, "32.05", 32_050, start), finish(7, 7, "33.48", 33_480, start), finish(8, 8, "35.12", 35_120, start)]) {
        yield* publish(finishEvent("pool", f))
      }
      const full = yield* until("the whole race", (p) => p.race?.finishes.every((f) => f.race === 0) === true ? p.race : undefined)
      assert.deepStrictEqual(full.finishes.map((f) => f.place), [1, 2, 3, 4, 5, 6, 7, 8])
      assert.strictEqual(yield* finishesCounted, 10)
    }).pipe(Effect.provide(clipsModelLayer(tempDir("status-race"), options, 10_000))))

  it.effect("shows a click settled before its finish reached the bus as the outbox has it, not as queued", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(t0)
      yield* publish(raceReading("pool", t0, { clock: "45.0", clockMs: 45_000, event: 3, heat: 1 }))
      const f = finish(4, 1, "28.91", 28_910, t0 - 45_000, { event: 3, heat: 1 })
      const id = yield* queued(f, "accepted")
      yield* publish(finishEvent("pool", f, id))
      const shown = yield* until("the finish", (p) => p.race?.finishes[0])
      assert.strictEqual(shown.answer?.state, "delivered")
      assert.strictEqual(shown.clip?.outcome, null)
    }).pipe(Effect.provide(clipsModelLayer(tempDir("status-race"), options, 10_000))))

  it.effect("after a restart, lists the last finishes the outbox holds clicks of, with their answers and clips, before and after the board's first reading", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(t0)
      const directory = tempDir("status-race")
      const earlier = [finish(2, 1, "29.10", 29_100, previousStart, { event: 11, heat: 1 }), finish(6, 2, "1:00.55", 60_550, previousStart, { event: 11, heat: 1 })]
      const last = [finish(4, 1, "28.91", 28_910, start), finish(5, 2, "29.40", 29_400, start), finish(3, 3, "30.02", 30_020, start)]
      // Before the restart: the rule's clicks in the outbox, settled as the scheduler and the clip follower left them.
      const ids = yield* Effect.gen(function*() {
        for (const f of earlier) yield* queued(f, "accepted")
        const won = yield* queued(last[0]!, "accepted")
        yield* settleClick(won, "clip-ready", { angles: 2, videoURL, readyAt: last[0]!.at + 12_000 })
        const silver = yield* queued(last[1]!, "accepted")
        const bronze = yield* queued(last[2]!, "dead")
        // A press after the race: a click, but no finish.
        yield* (yield* wholeOutbox).append({ place: "pool", kind: "click", payload: clickPayload(start + 50_000, { team: "none" }), createdAt: start + 50_000 })
        return [won, silver, bronze]
      }).pipe(Effect.provide(Layer.merge(Outbox.layer({ stateDirectory: directory, followUps: { firstReadAfterMs: 10_000 } }), BridgeEvents.layer)))

      // The status model started again on that outbox: no Finish event on the bus, no reading yet.
      yield* Effect.gen(function*() {
        const restored = yield* until("the finishes made before the restart", (p) => p.race?.finishes.length === 5 ? p.race : undefined)
        assert.deepInclude(restored, { event: null, heat: null, clock: null, phase: "unread", blanked: false })
        assert.deepStrictEqual(lanes(restored.finishes), [
          [0, 1, 4, "28.91"], [0, 2, 5, "29.40"], [0, 3, 3, "30.02"],
          [1, 1, 2, "29.10"], [1, 2, 6, "1:00.55"]
        ])
        const [won, silver, bronze] = restored.finishes
        assert.deepInclude(won!, { event: 12, heat: 3, at: last[0]!.at, timeMs: 28_910, clickItemId: ids[0]! })
        assert.deepInclude(won!.clip!, { itemId: ids[0]!, outcome: "clip-ready", text: "clip ready in 12 s, 2 angles", videoURL })
        assert.include(silver!.clip!.text, "waiting for its clip")
        assert.deepInclude(bronze!.answer!, { state: "dead", detail: "HTTP 400: window outside the event" })
        assert.deepInclude(restored.finishes[4]!, { timeMs: 60_550, at: earlier[1]!.at })
        // Finishes read since the start are counted; the outbox's are not read again.
        assert.strictEqual(yield* finishesCounted, 0)

        // The board read: its race line, the finishes stay; the tracker's Finish of a click the card has is the same swimmer.
        yield* publish(raceReading("pool", t0, { clock: "0.0", clockMs: 0, event: 12, heat: 4 }))
        yield* publish(finishEvent("pool", last[0]!, ids[0]!))
        const next = finish(7, 1, "27.50", 27_500, start + 4 * 60_000, { event: 12, heat: 4 })
        yield* publish(finishEvent("pool", next))
        const read = yield* until("the next race's finish", (p) => p.race?.finishes[0]?.lane === 7 ? p.race : undefined)
        assert.deepInclude(read, { event: 12, heat: 4, clock: "0.0", phase: "waiting" })
        assert.deepStrictEqual(lanes(read.finishes), [
          [0, 1, 7, "27.50"], [1, 1, 4, "28.91"], [1, 2, 5, "29.40"], [1, 3, 3, "30.02"], [2, 1, 2, "29.10"], [2, 2, 6, "1:00.55"]
        ])
      }).pipe(Effect.provide(clipsModelLayer(directory, options, 10_000)))
    }))

  it.effect("has its finish counter at 0 before the first finish, and no race block before a reading carries one", () =>
    Effect.gen(function*() {
      const before = yield* until("the card", (p) => p)
      assert.isNull(before.race)
      assert.strictEqual(yield* finishesCounted, 0)
      yield* publish(raceReading("pool", t0, { blanked: true, event: 12 }))
      const blank = yield* until("the blank clock", (p) => p.race ?? undefined)
      assert.deepStrictEqual(blank, { event: 12, heat: null, clock: null, phase: "blank", blanked: true, finishes: [] })
    }).pipe(Effect.provide(clipsModelLayer(tempDir("status-race"), options, 10_000))))
})
