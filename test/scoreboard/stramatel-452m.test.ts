import { afterEach, describe, expect, it } from "vitest"
import { playOnBus } from "./bus-play.ts"
import { type BusConsole, stramatelHockeyBus } from "./consoles/stramatel.ts"
import { expectDelivered, expectModelShape, resources, type Sport, type WriteTimes } from "./harness.ts"
import { hockeyEntry, hockeyGame } from "./matches/hockey-game.ts"
import { expectedEntries, type Step } from "./matches/match.ts"
import { startPtyBridge } from "./pty-match.ts"

/**
 * A match on a console that repeats its whole state every ~100 ms with bus
 * chatter between, through a pty to the real daemon: every score or period
 * change once, stamped at the first frame that showed it; repeats, penalty
 * clocks, the shot clock and other frames on the bus make none. One match here, through the
 * real pty and daemon; every other match of the console runs on virtual time against the same
 * pipeline (test/scoring/console-matches.test.ts).
 */
const playOnConsoleBus = async <B, E>(
  res: ReturnType<typeof resources>,
  sport: Sport,
  console: BusConsole<B>,
  steps: ReadonlyArray<Step<B>>,
  entryOf: (board: B) => E,
  seed: number
) => {
  const expected = expectedEntries(steps, entryOf)
  expectModelShape(steps, expected)
  const { bridge, writer } = await startPtyBridge(res, sport, console as BusConsole<never>)
  const written: WriteTimes = []
  const played = await playOnBus(steps, console, writer.write, written, { seed })
  expect(played.repeatedSteps, "steps sent more than once").toBeGreaterThan(steps.length / 2)
  expect(played.mainFramesCut, "main frames cut across writes").toBeGreaterThan(played.sends / 10)
  await expectDelivered(bridge, expected, written)
  return expected
}

// Whole-state frames: a clock-only board is a new frame with the same score, or a plain repeat (tennis has no clock).
describe("stramatel-452m over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  it("a hockey game on code 0x35 to overtime, with a goal taken back: periods right; penalty clocks running down on every frame make no entry", async () => {
    const steps = hockeyGame(24)
    const expected = await playOnConsoleBus(res, "hockey", stramatelHockeyBus(), steps, hockeyEntry, 24)
    // The game is what it claims: four periods and a score that goes down.
    expect(new Set(expected.map(({ entry }) => entry.period))).toEqual(new Set([1, 2, 3, 4]))
    expect(expected.some(({ entry }, i) => i > 0 && entry.left < expected[i - 1]!.entry.left)).toBe(true)
  }, 60_000)
})
