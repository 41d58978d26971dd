import { afterEach, describe, expect, it } from "vitest"
import { basketballFields, type Render } from "./consoles/daktronics.ts"
import { rtdFieldConsole } from "./consoles/daktronics-fields.ts"
import { playFields } from "./field-play.ts"
import { expectDelivered, expectModelShape, resources, type Sport, type WriteTimes } from "./harness.ts"
import { basketballEntry, basketballQuarter } from "./matches/basketball-quarter.ts"
import { expectedEntries, type Step } from "./matches/match.ts"
import { startPtyBridge } from "./pty-match.ts"

/**
 * Whole matches from a console that sends every changed field as a frame of its
 * own (clock ticks included), each change in one write or split across reads:
 * every real change exactly once, in order, stamped at its first frame. One match through the
 * real pty and daemon; the tennis set and the volleyball sets run on virtual time against the same
 * pipeline in test/scoring/scoreboard-pipeline.test.ts.
 */
describe("daktronics-rtd over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  const match = <B, E>(sport: Sport, render: Render<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => E) => async () => {
    const expected = expectedEntries(steps, entryOf)
    expectModelShape(steps, expected)
    const console = rtdFieldConsole(render)
    const { bridge, writer } = await startPtyBridge(res, sport, console as never)
    const written: WriteTimes = []
    const played = await playFields(steps, console, writer.write, written, { delivery: "mixed", seed: steps.length })
    expect(played.splitSteps, "steps split across writes").toBeGreaterThan(steps.length / 4)
    await expectDelivered(bridge, expected, written)
  }

  it("a basketball quarter: every basket once, clock ticks make no entry",
    match("basketball", basketballFields, basketballQuarter(11), (b) => basketballEntry(b)), 60_000)

})
