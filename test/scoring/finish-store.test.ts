import { resultHoldMs } from "../../src/highlights/race-lanes.ts"
import { rmSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { type BridgeEvent, BridgeEvents } from "../../src/bus/bridge-events.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import type { AutoRule } from "../../src/domain/auto-rule.ts"
import type { LaneBoard } from "../../src/domain/race.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import type { AutoHighlightSettings } from "../../src/highlights/auto-highlighter.ts"
import { makeFinishStore } from "../../src/scoring/finish-store.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The daemon's finish store on the real outbox and bus: race boards as a timing console's decoder
 * emits them (the whole board at every running-clock packet, about ten a second) → the race
 * tracker → a bus `Finish` per finish → the `finish` rule's clicks, stored with the finish's item
 * id on the bus. A restart mid-race (a new store on the same outbox) makes no finish twice.
 */

const horn = 1_800_000_000_000
/** A clock packet arrives this long after the tenth it shows. */
const latencyMs = 37
/** A lane's stopped packet is confirmed this long after its touch. */
const settleMs = 400

interface Swim {
  readonly lane: number
  readonly place: number
  readonly timeMs: number
  readonly time: string
}

/** A heat of four: the touches, ms after the horn, and the places the console gives. */
const heat: ReadonlyArray<Swim> = [
  { lane: 4, place: 1, timeMs: 28_910, time: "28.91" },
  { lane: 5, place: 2, timeMs: 29_070, time: "29.07" },
  { lane: 3, place: 3, timeMs: 29_400, time: "29.40" },
  { lane: 6, place: 4, timeMs: 31_020, time: "31.02" }
]

/** The previous heat's results, shown with the clock reset until this heat starts. */
const previous: ReadonlyArray<LaneBoard> = [3, 4, 5, 6].map((lane, i) => ({
  lane, state: "stopped", place: i + 1, time: `30.${10 + i}`, timeMs: 30_100 + 10 * i
}))

const laneAt = (swim: Swim, clockMs: number): LaneBoard =>
  clockMs >= swim.timeMs + settleMs
    ? { lane: swim.lane, state: "stopped", place: swim.place, time: swim.time, timeMs: swim.timeMs }
    : { lane: swim.lane, state: "running" }

/** The board's readings from `fromMs` to `toMs` after the horn (before it: the reset clock and the last heat's results). */
const readings = (fromMs: number, toMs: number): ReadonlyArray<Reading> => {
  const out: Array<Reading> = []
  for (let ms = fromMs; ms <= toMs; ms += 100) {
    const race = ms < 0
      ? { clockMs: 0, clockReset: true, event: 12, heat: 2, lanes: previous }
      : { clockMs: ms, clockReset: false, event: 12, heat: 3, lanes: heat.map((swim) => laneAt(swim, ms)) }
    out.push({ receivedAt: horn + ms + latencyMs, race })
  }
  return out
}

const finishRule = (rule: Partial<AutoRule> = {}): AutoHighlightSettings => ({
  rules: [{ rule: "finish", ...rule }],
  mergeMs: 5_000,
  overlayFor: (_team, _score, _event, _board, finish) =>
    finish === undefined ? {} : { overlay: { imageSource: `https://cdn.example.com/lane-${finish.lane}.png`, heightPercentOfHeight: 10 } }
})

const services = Effect.gen(function*() {
  const stateDirectory = tempDir("finish-store")
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(stateDirectory, { recursive: true, force: true })))
  return yield* Layer.build(Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, BridgeEvents.layer, LatestBoard.layer))
})

type Services = Effect.Success<typeof services>

/** A store (a daemon's run) fed `boards` on virtual time; the Finish events it published. */
const run = (context: Services, autos: AutoHighlightSettings | undefined, boards: ReadonlyArray<Reading>) =>
  Effect.gen(function*() {
    const bus = yield* BridgeEvents
    const events = yield* bus.subscribe
    const store = yield* makeFinishStore("pool", "swimming", autos)
    for (const reading of boards) {
      yield* TestClock.setTime(reading.receivedAt)
      yield* store.read(reading, false)
    }
    // Published after every reading was read: the events before it are all there were.
    yield* bus.publish({ _tag: "Link", place: "end", state: { _tag: "connected", target: "end" } })
    const seen = yield* Stream.runCollect(events.pipe(Stream.takeWhile((event) => event._tag !== "Link")))
    return seen.filter((event): event is Extract<BridgeEvent, { _tag: "Finish" }> => event._tag === "Finish")
  }).pipe(Effect.provide(context))

const clicksIn = (context: Services) =>
  Effect.gen(function*() {
    const items = yield* (yield* OutboxItems).recent("pool", 100)
    return items.flatMap((item) => (item.kind === "click" ? [item] : [])).reverse()
  }).pipe(Effect.provide(context))

describe("the finish store", () => {
  it.effect("publishes every finish, stores a click for each the rule selects, stamped at the touch, and names its item on the bus", () =>
    Effect.gen(function*() {
      const context = yield* services
      const published = yield* run(context, finishRule({ places: 3 }), readings(-3_000, 35_000))
      expect(published.map((event) => [event.finish.lane, event.finish.place, event.finish.time, event.finish.event, event.finish.heat]))
        .toEqual(heat.map((swim) => [swim.lane, swim.place, swim.time, 12, 3]))
      const clicks = yield* clicksIn(context)
      // The podium only: the fourth place is published but makes no click.
      expect(clicks.map((click) => click.payload.metadata.finish)).toEqual(heat.slice(0, 3).map(({ lane, place, time }) => ({ lane, place, time, event: 12, heat: 3 })))
      expect(published.map((event) => event.clickItemId)).toEqual([...clicks.map((click) => click.id), undefined])
      clicks.forEach((click, i) => {
        const touch = horn + heat[i]!.timeMs
        // The touch, not the stopped packet's arrival 0.4 s later.
        expect(Math.abs(click.payload.timeStamp - touch), `lane ${heat[i]!.lane}`).toBeLessThanOrEqual(latencyMs)
        expect([click.payload.startTime, click.payload.endTime]).toEqual([click.payload.timeStamp - 10_000, click.payload.timeStamp + 6_000])
        expect(click.payload.overlays).toEqual([{ imageSource: `https://cdn.example.com/lane-${heat[i]!.lane}.png`, heightPercentOfHeight: 10 }])
        expect(click.notBefore).toBe(click.createdAt)
      })
      const all = yield* Effect.provide(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.recent("pool", 100)), context)
      expect(all.filter((item) => item.kind !== "click")).toEqual([])
    }))

  it.effect("after a restart mid-race, makes the finishes not yet made and none of the others again", () =>
    Effect.gen(function*() {
      const context = yield* services
      const before = yield* run(context, finishRule(), readings(-3_000, 30_000 + resultHoldMs))
      expect(before.map((event) => event.finish.lane)).toEqual([4, 5, 3])
      // The daemon killed and started again: a new store, its tracker joining the race running.
      const after = yield* run(context, finishRule(), readings(30_800 + resultHoldMs, 35_000))
      expect(after.map((event) => event.finish.lane)).toEqual([6])
      const clicks = yield* clicksIn(context)
      expect(clicks.map((click) => click.payload.metadata.finish?.lane)).toEqual([4, 5, 3, 6])
      expect(after[0]?.clickItemId).toBe(clicks[3]?.id)
    }))

  it.effect("without a finish rule, or while the place has no event, publishes the finishes and stores nothing", () =>
    Effect.gen(function*() {
      const bare = yield* services
      const unruled = yield* run(bare, { ...finishRule(), rules: [{ rule: "score" }] }, readings(-1_000, 35_000))
      expect(unruled.map((event) => [event.finish.lane, event.clickItemId])).toEqual(heat.map((swim) => [swim.lane, undefined]))
      expect(yield* clicksIn(bare)).toEqual([])
      const closed = yield* services
      yield* TestClock.setTime(horn)
      yield* Effect.provide(Effect.flatMap(Effect.service(ActiveEvents), (events) => events.learn("pool", null)), closed)
      const noEvent = yield* run(closed, finishRule(), readings(-1_000, 35_000))
      expect(noEvent.map((event) => event.clickItemId)).toEqual([undefined, undefined, undefined, undefined])
      expect(yield* clicksIn(closed)).toEqual([])
    }))

  it.effect("reads nothing of readings without a race board", () =>
    Effect.gen(function*() {
      const context = yield* services
      const scores = readings(0, 35_000).map(({ receivedAt }) => ({ receivedAt, home: 3, away: 1, clock: "1:00" }))
      expect(yield* run(context, finishRule(), scores)).toEqual([])
    }))
})
