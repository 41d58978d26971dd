import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { daktronicsRtd } from "../../adapters/daktronics-rtd/index.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { runScoreboard } from "../../src/scoring/scoreboard-pipeline.ts"
import { defaultSettleMs } from "../../src/scoring/settle-window.ts"
import { BridgeEvents } from "../../src/status/bridge-events.ts"
import { basketballFields, type Render, tennisFields, volleyballFields } from "../scoreboard/consoles/daktronics.ts"
import { type FieldOrder, rtdFieldConsole } from "../scoreboard/consoles/daktronics-fields.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { expectedEntries, type Step } from "../scoreboard/matches/match.ts"
import { expectModelShape } from "../scoreboard/harness.ts"
import { tennisEntry, tennisSet } from "../scoreboard/matches/tennis-set.ts"
import {
  basketballCorrection,
  basketballPeriodChange,
  tennisGameWon,
  tennisSetWon,
  tennisTieBreakWon,
  volleyballSetWonAndNextSet
} from "../scoreboard/matches/turning-points.ts"
import { volleyballEntry, volleyballMatch } from "../scoreboard/matches/volleyball-match.ts"
import { playVirtual, virtualLine } from "./virtual-line.ts"

/**
 * One place's score pipeline (decoder → settling → outbox) on virtual time, with the real
 * Daktronics RTD decoder and the real outbox: one change sent as several frames, in one read or
 * cut into reads a few ms apart, becomes exactly one entry stamped with the first byte of the
 * change, never a state half-way through it. The same scenes run through a real pty and the real
 * daemon process in test/scoreboard/daktronics-settle.test.ts (fewer of them: the clock there is real).
 */
const directories: Array<string> = []
afterAll(() => directories.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const t0 = 1_000_000
const settleMs = defaultSettleMs(daktronicsRtd)

const scene = <B, E>(
  sport: string,
  render: Render<B>,
  steps: ReadonlyArray<Step<B>>,
  entryOf: (board: B) => E,
  options: { readonly split: boolean | "mixed"; readonly order: FieldOrder; readonly seed?: number; readonly changeGapMs?: number; readonly holdLoopMs?: number }
) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(t0)
    const stateDirectory = mkdtempSync(join(tmpdir(), "scorebridge-pipeline-"))
    directories.push(stateDirectory)
    const parts = Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, BridgeEvents.layer, LatestBoard.layer)
    const services = yield* Layer.build(parts)
    const line = yield* virtualLine
    const options_ = Schema.decodeUnknownSync(daktronicsRtd.optionsSchema)({})
    const decoder = daktronicsRtd.makeDecoder({ ...(options_ as object), sport })
    const pipeline = yield* Effect.forkChild(runScoreboard("court-1", sport, decoder, line.chunks, settleMs).pipe(Effect.provide(services)))
    const written = yield* playVirtual(line, steps, rtdFieldConsole(render, options.order), {
      split: options.split, seed: options.seed ?? steps.length, ...(options.changeGapMs === undefined ? {} : { changeGapMs: options.changeGapMs })
    })
    yield* line.wait(settleMs * 11)
    const stored = yield* Effect.provide(Effect.flatMap(Effect.service(Outbox), (outbox) => outbox.recent("court-1", 1_000)), services)
    yield* Fiber.interrupt(pipeline)
    const entries = stored.filter((item) => item.kind === "score").reverse().map((item) => item.payload as { timeStamp: number })
    const expected = expectedEntries(steps, entryOf)
    expect(entries.map(({ timeStamp: _t, ...entry }) => entry)).toEqual(expected.map((e) => e.entry))
    // Stamped when a read of the change's own bytes arrived (the one that brought the first byte of
    // its first score-changing frame), to the millisecond: never a read of an earlier change, never later.
    const stampedRead = entries.map((e, i) => written[expected[i]!.step]!.includes(e.timeStamp))
    expect(stampedRead).toEqual(entries.map(() => true))
    if (options.split === false) expect(entries.map((e) => e.timeStamp)).toEqual(expected.map((e) => written[e.step]![0]))
  })

describe("score pipeline on virtual time: one entry per real change when a change spans several frames", () => {
  for (const [split, order] of [[false, "as-rendered"], [true, "reversed"], [true, "as-rendered"], [false, "reversed"]] as const) {
    describe(`frames ${split ? "split across reads" : "in one read"}, fields ${order}`, () => {
      const options = { split, order }
      it.effect("tennis: a game won", () => scene("tennis", tennisFields, tennisGameWon(), tennisEntry, options))
      it.effect("tennis: a set won 6–4", () => scene("tennis", tennisFields, tennisSetWon(), tennisEntry, options))
      it.effect("tennis: a tie-break won", () => scene("tennis", tennisFields, tennisTieBreakWon(), tennisEntry, options))
      it.effect("volleyball: a set won and the next set started", () =>
        scene("volleyball", volleyballFields, volleyballSetWonAndNextSet(), volleyballEntry, options))
      it.effect("basketball: a basket at the buzzer and the next period", () =>
        scene("basketball", basketballFields, basketballPeriodChange(), (b) => basketballEntry(b), options))
    })
  }

  it.effect("basketball: changes 300 ms apart stay apart, and an operator's correction (score going down) is stored", () =>
    scene("basketball", basketballFields, basketballCorrection(), (b) => basketballEntry(b), { split: true, order: "as-rendered", changeGapMs: 300 }))

  it.effect("many cuts of one volleyball scene (seeds 1–20): never a half-applied state", () =>
    Effect.forEach(Array.from({ length: 20 }, (_, i) => i + 1), (seed) =>
      scene("volleyball", volleyballFields, volleyballSetWonAndNextSet(), volleyballEntry, { split: true, order: seed % 2 === 0 ? "reversed" : "as-rendered", seed })
    , { discard: true }))
})

describe("score pipeline on virtual time: whole matches, every field its own frame, clock ticks included", () => {
  const mixed = { split: "mixed", order: "as-rendered" } as const
  it.effect("a basketball quarter: every basket once, clock ticks make no entry", () => {
    const steps = basketballQuarter(11)
    expectModelShape(steps, expectedEntries(steps, (b) => basketballEntry(b)))
    return scene("basketball", basketballFields, steps, (b) => basketballEntry(b), mixed)
  })
  it.effect("a tennis set to 6–6 and a tie-break: every game, the set and the next set's start once", () => {
    const steps = tennisSet(13)
    expectModelShape(steps, expectedEntries(steps, tennisEntry))
    return scene("tennis", tennisFields, steps, tennisEntry, mixed)
  })
  it.effect("two volleyball sets: every point, the set won and the next set's start once", () => {
    const all = volleyballMatch(12)
    const steps = all.slice(0, all.findIndex((s) => s.board.period === 3) + 2)
    expectModelShape(steps, expectedEntries(steps, volleyballEntry))
    return scene("volleyball", volleyballFields, steps, volleyballEntry, mixed)
  })
})
