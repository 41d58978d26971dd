import { afterEach, describe, expect, it } from "vitest"
import { type FairPlaySettings, fairplayConsole } from "./consoles/fairplay.ts"
import { type Delivery, playFields } from "./field-play.ts"
import { expectDelivered, expectModelShape, resources, type WriteTimes } from "./harness.ts"
import { hockeyEntry, hockeyGame } from "./matches/hockey-game.ts"
import { expectedEntries } from "./matches/match.ts"
import { startPtyBridge } from "./pty-match.ts"

/**
 * A Fair-Play MP-70 on its ProLine output, through a real pty to the real
 * daemon: clock packets on every update, state packets on change and every
 * few updates, several packets per read and packets cut across reads. Every
 * score or period change must reach the simulator exactly once, in order,
 * stamped at the write that first showed it; clock packets and repeated state
 * packets must make none.
 */
describe("fairplay-mp70 over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  const game = (settings: FairPlaySettings, delivery: Delivery | "mixed", seed: number) => async () => {
    const steps = hockeyGame(seed)
    const expected = expectedEntries(steps, hockeyEntry)
    expectModelShape(steps, expected)
    // The game is what it claims: an overtime, and a score that goes down.
    expect(expected.at(-1)?.entry.period).toBe(4)
    expect(expected.some(({ entry }, i) => i > 0 && entry.left < expected[i - 1]!.entry.left)).toBe(true)

    const console = fairplayConsole(settings)
    const { bridge, writer } = await startPtyBridge(res, "hockey", console as never)
    const written: WriteTimes = []
    const played = await playFields(steps, console, writer.write, written, { delivery, seed, changeGapMs: 150 })
    expect(played.multiFrameSteps, "steps sent as several packets").toBe(steps.length)
    expect(played.splitSteps, "steps cut across writes").toBeGreaterThan(0)
    await expectDelivered(bridge, expected, written)
  }

  it("a hockey game to overtime (O), with a goal taken back: the documented layout, packets whole or cut across reads",
    game({}, "mixed", 70))

  it("a console whose firmware puts the fields elsewhere and shows overtime as 4: positions and minLength options",
    game({
      layout: { positions: { home: 20, guest: 36, period: 50, clock: 8 }, length: 96 },
      options: { positions: { home: 20, guest: 36, period: 50, clock: 8 }, minLength: 96 },
      overtimeAs: "4"
    }, "split-reads", 71))
})
