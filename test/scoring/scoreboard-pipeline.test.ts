import { describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { basketballFields, type Render, tennisFields, volleyballFields } from "../scoreboard/consoles/daktronics.ts"
import { type FieldOrder, rtdFieldConsole } from "../scoreboard/consoles/daktronics-fields.ts"
import { playFields } from "../scoreboard/field-play.ts"
import { expectModelShape } from "../scoreboard/harness.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { expectedEntries, type Step } from "../scoreboard/matches/match.ts"
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
import { pipelineScene } from "./pipeline-scene.ts"

/**
 * The score pipeline on virtual time with the real Daktronics RTD decoder and the real outbox,
 * fed by the same console model and player as the pty tests (every changed field its own frame):
 * one change sent as several frames, in one read or cut into reads a few ms apart, becomes exactly
 * one entry stamped at the change's own bytes, never a state half-way through it. The same scenes
 * run through a real pty and daemon in test/scoreboard/daktronics-settle.test.ts (fewer of them:
 * the clock there is real).
 */
const scene = <B, E>(
  sport: string,
  render: Render<B>,
  steps: ReadonlyArray<Step<B>>,
  entryOf: (board: B) => E,
  options: { readonly split: boolean | "mixed"; readonly order: FieldOrder; readonly seed?: number; readonly changeGapMs?: number }
) => {
  const console = rtdFieldConsole(render, options.order)
  return pipelineScene({
    console: { protocol: "daktronics-rtd", options: {} },
    sport,
    steps,
    entryOf,
    exactStamps: options.split === false,
    play: (clock, write, written) =>
      playFields(steps, console, write, written, {
        delivery: options.split === "mixed" ? "mixed" : options.split ? "split-reads" : "one-write",
        seed: options.seed ?? steps.length,
        clock,
        ...(options.changeGapMs === undefined ? {} : { changeGapMs: options.changeGapMs })
      })
  })
}

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
