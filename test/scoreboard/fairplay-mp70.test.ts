import { afterEach, describe, expect, it } from "vitest"
import { type FairPlaySettings, fairplayConsole } from "./consoles/fairplay.ts"
import { type Delivery, playFields } from "./field-play.ts"
import { expectDelivered, expectModelShape, resources, type WriteTimes } from "./harness.ts"
import { hockeyEntry, hockeyGame } from "./matches/hockey-game.ts"
import { expectedEntries } from "./matches/match.ts"
import { startPtyBridge } from "./pty-match.ts"

/**
 * A Fair-Play MP-70 on its RS-232 data output, through a real pty to the real
 * daemon: several packets per step (C packets with the clock, H packets with
 * the score), several steps' packets per read and packets cut across reads.
 * Every score or period change must reach the simulator exactly once, in
 * order, stamped at the write that first showed it; clock packets, repeated
 * state packets and running penalty clocks must make none. The other variants, and more seeds,
 * run on virtual time against the same pipeline (test/scoring/console-matches.test.ts).
 */
describe("fairplay-mp70 over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  const game = (settings: FairPlaySettings, delivery: Delivery | "mixed", seed: number, tickGapMs?: number) => async () => {
    const steps = hockeyGame(seed)
    const expected = expectedEntries(steps, hockeyEntry)
    expectModelShape(steps, expected)
    // The game is what it claims: three periods and an overtime, a score that goes down, and guest
    // penalties of 1:00–9:59 running (in the rink layout their minutes sit at H byte 45).
    expect(expected.map(({ entry }) => entry.period)).toEqual(expect.arrayContaining([1, 2, 3, 4]))
    expect(expected.at(-1)?.entry.period).toBe(4)
    expect(expected.some(({ entry }, i) => i > 0 && entry.left < expected[i - 1]!.entry.left)).toBe(true)
    const guestMinutes = new Set(steps.flatMap(({ board }) => (board.penalties?.away ?? []).map((p) => Number(p.remaining.split(":")[0]))))
    expect([...guestMinutes].filter((m) => m >= 1 && m <= 9).length).toBeGreaterThanOrEqual(3)

    const console = fairplayConsole(settings)
    const { bridge, writer } = await startPtyBridge(res, "hockey", console as never)
    const written: WriteTimes = []
    const played = await playFields(steps, console, writer.write, written, { delivery, seed, changeGapMs: 150, ...(tickGapMs === undefined ? {} : { tickGapMs }) })
    expect(played.multiFrameSteps, "steps sent as several packets").toBe(steps.length)
    expect(played.splitSteps, "steps cut across writes").toBeGreaterThan(0)
    await expectDelivered(bridge, expected, written)
  }

  it("a hockey game to overtime (O) as the rink console sends it, with penalties running: the default variant, packets whole or cut across reads",
    // Three or four packets a step every ~130 ms: the ~22 packets a second of the real console.
    game({}, "mixed", 70, 130))
})
