import { afterEach, describe, expect, it } from "vitest"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { type BodetConsole, bodetFloorball } from "./consoles/bodet.ts"
import { expectDelivered, expectModelShape, resources, type WriteTimes } from "./harness.ts"
import { expectedEntries, type Step } from "./matches/match.ts"
import { floorballEntry, floorballMatch } from "./matches/floorball-match.ts"
import { startPtyBridge } from "./pty-match.ts"
import { sleep } from "../support/sleep.ts"

/** Message 11 is 21 bytes. */
const scoreFrameLength = 21

/**
 * Shows each step as the console's burst of frames: in one write (several
 * frames in one read), or cut at random points into 2–4 writes 2–25 ms
 * apart, often inside message 11 itself (its rest then follows 60–90 ms later). Records, per step, when the write
 * holding the first byte of its first message 11 went out: the time the entry
 * must carry.
 */
const playBursts = async <B>(
  steps: ReadonlyArray<Step<B>>,
  console: BodetConsole<B>,
  write: (bytes: Uint8Array) => unknown,
  written: WriteTimes,
  seed: number
) => {
  const random = seededRandom(seed)
  let oneWrite = 0
  const scoreFrameSplit = new Set<number>()
  for (const [i, step] of steps.entries()) {
    if (i > 0) await sleep(step.tick ? 40 : 120)
    const { bytes, scoreAt } = console.burst(step.board)
    const cuts = new Set<number>()
    if (random.next() < 0.7) {
      for (let n = random.int(1, 3); n > 0; n--) cuts.add(random.int(1, bytes.length - 1))
      // Half of the split bursts cut message 11 itself.
      if (random.next() < 0.5) cuts.add(scoreAt + random.int(1, scoreFrameLength - 1))
    }
    const ends = [...[...cuts].sort((a, b) => a - b), bytes.length]
    if (ends.length === 1) oneWrite++
    if (ends.some((cut) => cut > scoreAt && cut < scoreAt + scoreFrameLength)) scoreFrameSplit.add(i)
    let from = 0
    for (const end of ends) {
      // A message 11 cut in two waits longer than the stamp tolerance for its rest: stamped by its last
      // part instead of its first, its entry would be late.
      if (from > scoreAt && from < scoreAt + scoreFrameLength) await sleep(random.int(60, 90))
      else if (from > 0) await sleep(random.int(2, 25))
      if (from <= scoreAt && scoreAt < end) written[i] = [Date.now()]
      write(bytes.subarray(from, end))
      from = end
    }
  }
  return { oneWrite, scoreFrameSplit }
}

describe("bodet-scorepad over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  it("a floorball match: every goal once, the correction that takes one back, extra time 'E' as period 4; clock ticks and penalty messages make no entry", async () => {
    const steps = floorballMatch(31)
    const expected = expectedEntries(steps, floorballEntry)
    expectModelShape(steps, expected)
    // The model really has what the test is about.
    const entries = expected.map((e) => e.entry)
    expect(entries.filter((e) => e.period === 4).length, "entries in extra time").toBeGreaterThanOrEqual(2)
    expect(entries.some((e, i) => i > 0 && e.left + e.right < entries[i - 1]!.left + entries[i - 1]!.right), "a correction").toBe(true)
    expect(new Set(entries.map((e) => e.period))).toEqual(new Set([1, 2, 3, 4]))

    const console = bodetFloorball()
    const { bridge, writer } = await startPtyBridge(res, "unihockey", console as never)
    const written: WriteTimes = []
    const played = await playBursts(steps, console, writer.write, written, 31)
    expect(played.oneWrite, "bursts in one write: several frames per read").toBeGreaterThan(steps.length / 10)
    const splitSteps = played.scoreFrameSplit
    const splitEntries = expected.filter(({ step }) => splitSteps.has(step)).length
    expect(splitEntries, "entries whose message 11 came in two reads").toBeGreaterThan(expected.length / 5)
    await expectDelivered(bridge, expected, written)
  }, 60_000)
})
