import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FairPlaySettings, fairplayConsole } from "../scoreboard/consoles/fairplay.ts"
import {
  type BusConsole,
  stramatelBasketball,
  stramatelBasketballBus,
  stramatelHockeyBus,
  stramatelTennis,
  stramatelVolleyball
} from "../scoreboard/consoles/stramatel.ts"
import type { SimulatedConsole } from "../scoreboard/consoles/console.ts"
import { playOnBus } from "../scoreboard/bus-play.ts"
import { type Delivery, playFields } from "../scoreboard/field-play.ts"
import { expectModelShape, play } from "../scoreboard/harness.ts"
import { basketballEntry, basketballGame, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { hockeyEntry, hockeyGame } from "../scoreboard/matches/hockey-game.ts"
import { expectedEntries, type Step } from "../scoreboard/matches/match.ts"
import { tennisEntry, tennisSet } from "../scoreboard/matches/tennis-set.ts"
import { volleyballEntry, volleyballMatch } from "../scoreboard/matches/volleyball-match.ts"
import { pipelineScene } from "./pipeline-scene.ts"

/**
 * Whole matches of the Stramatel 452 M and the Fair-Play MP-70 against the score pipeline on
 * virtual time, with the console models and players of the pty tests: every score or period change
 * once, stamped at the write that first showed it; repeats, clocks, penalty clocks and bus chatter
 * make none. One match per console also runs through a real pty and daemon
 * (test/scoreboard/stramatel-452m.test.ts, fairplay-mp70.test.ts).
 */
const wholeStates = <B, E>(sport: string, console: SimulatedConsole<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => E) => {
  expectModelShape(steps, expectedEntries(steps, entryOf))
  return pipelineScene({
    console, sport, steps, entryOf, exactStamps: true,
    play: (clock, write, written) => play(steps, console, write, written, { clock })
  })
}

const onBus = <B, E>(sport: string, console: BusConsole<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => E, seed: number) => {
  expectModelShape(steps, expectedEntries(steps, entryOf))
  return pipelineScene({
    console, sport, steps, entryOf, exactStamps: true,
    play: async (clock, write, written) => {
      const played = await playOnBus(steps, console, write, written, { seed, clock })
      expect(played.repeatedSteps, "steps sent more than once").toBeGreaterThan(steps.length / 2)
      expect(played.mainFramesCut, "main frames cut across writes").toBeGreaterThan(played.sends / 10)
    }
  })
}

describe("stramatel-452m on virtual time", () => {
  it.effect("a basketball quarter: every basket once with its period (byte 14), clock ticks make no entry", () =>
    wholeStates("basketball", stramatelBasketball(), basketballQuarter(21, 2), (b) => basketballEntry(b)))

  it.effect("a five-set volleyball match (the fifth set has no slot: live tally only)", () =>
    wholeStates("volleyball", stramatelVolleyball(), volleyballMatch(22), volleyballEntry))

  it.effect("a tennis set to 6–6 and a tie-break (byte 52 flags it)", () =>
    wholeStates("tennis", stramatelTennis(), tennisSet(23), tennisEntry))

  it.effect("a hockey game on code 0x35 to overtime, with a goal taken back: periods right; penalty clocks make no entry", () =>
    Effect.gen(function*() {
      const { expected } = yield* onBus("hockey", stramatelHockeyBus(), hockeyGame(24), hockeyEntry, 24)
      expect(new Set(expected.map(({ entry }) => entry.period))).toEqual(new Set([1, 2, 3, 4]))
      expect(expected.some(({ entry }, i) => i > 0 && entry.left < expected[i - 1]!.entry.left)).toBe(true)
    }))

  it.effect("a basketball game of four quarters on code 0x33: each period change one entry; the shot clock and fouls make none", () =>
    Effect.gen(function*() {
      const { expected } = yield* onBus("basketball", stramatelBasketballBus(), basketballGame(25), basketballEntry, 25)
      expect(expected.map(({ entry }) => entry.period).filter((p, i, all) => p !== all[i - 1])).toEqual([1, 2, 3, 4])
    }))
})

describe("fairplay-mp70 on virtual time", () => {
  const game = (settings: FairPlaySettings, delivery: Delivery | "mixed", seed: number, tickGapMs?: number) =>
    Effect.gen(function*() {
      const steps = hockeyGame(seed)
      const expected = expectedEntries(steps, hockeyEntry)
      expectModelShape(steps, expected)
      // The game is what it claims: four periods, a score that goes down, guest penalties of 1:00–9:59.
      expect(expected.map(({ entry }) => entry.period)).toEqual(expect.arrayContaining([1, 2, 3, 4]))
      expect(expected.some(({ entry }, i) => i > 0 && entry.left < expected[i - 1]!.entry.left)).toBe(true)
      const guestMinutes = new Set(steps.flatMap(({ board }) => (board.penalties?.away ?? []).map((p) => Number(p.remaining.split(":")[0]))))
      expect([...guestMinutes].filter((m) => m >= 1 && m <= 9).length).toBeGreaterThanOrEqual(3)
      const console = fairplayConsole(settings)
      yield* pipelineScene({
        console, sport: "hockey", steps, entryOf: hockeyEntry,
        play: async (clock, write, written) => {
          const played = await playFields(steps, console, write, written, { delivery, seed, clock, changeGapMs: 150, ...(tickGapMs === undefined ? {} : { tickGapMs }) })
          expect(played.multiFrameSteps, "steps sent as several packets").toBe(steps.length)
          expect(played.splitSteps, "steps cut across writes").toBeGreaterThan(0)
        }
      })
    })

  it.effect("the rink console showing overtime as 4, every step cut across reads", () => game({ overtimeAs: "4" }, "split-reads", 72, 130))

  it.effect("a ProLine console whose firmware puts the fields elsewhere and shows overtime as 4: variant proline and fields", () =>
    game({
      layout: { variant: "proline", fields: { home: "H 20-22", away: "H 36-38", period: "H 50", clock: "C 8-11" }, length: 96 },
      overtimeAs: "4"
    }, "split-reads", 71))

  it.effect("the rink console, packets whole or cut across reads, over several seeds", () =>
    Effect.forEach([70, 73, 74], (seed) => game({}, "mixed", seed, 130), { discard: true }))
})
