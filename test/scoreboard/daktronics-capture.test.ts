import { afterEach, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { cleanCapturePath, ETB, expectedGenericChanges, fixture } from "../replay/support.ts"
import type { SimulatedConsole } from "./consoles/console.ts"
import { expectDelivered, resources, type WriteTimes } from "./harness.ts"
import type { Expected } from "./matches/match.ts"
import { startPtyBridge } from "./pty-match.ts"
import { sleep } from "../support/sleep.ts"

/** The real capture's frames, each from its SYN to its ETB. */
const captureFrames = (): Array<Uint8Array> => {
  const bytes = fixture(cleanCapturePath)
  const frames: Array<Uint8Array> = []
  let from = 0
  for (let at = bytes.indexOf(ETB); at !== -1; at = bytes.indexOf(ETB, at + 1)) {
    frames.push(bytes.subarray(from, at + 1))
    from = at + 1
  }
  return frames
}

/**
 * What the board showed, read frame by frame with no settling at all: in this
 * capture every frame writes one field, and on the real console the frames that
 * change the score were seconds apart (a football clock ticks in between), so
 * each distinct score is a state the board showed.
 */
const shownScores = (frames: ReadonlyArray<Uint8Array>) => {
  const decoder = protocols["daktronics-rtd"]!.makeDecoder({ sport: "football" })
  const readings: Array<{ home?: number; away?: number; period?: number; frame: number }> = []
  frames.forEach((bytes, frame) => {
    for (const reading of decoder.push(bytes, frame)) readings.push({ ...reading, frame })
  })
  return expectedGenericChanges(readings).map((index): Expected<{ left: number; right: number; period: number }> => {
    const { home, away, period, frame } = readings[index]!
    return { entry: { left: home!, right: away!, period: period ?? 0 }, step: frame }
  })
}

const rawConsole: SimulatedConsole<never> = { protocol: "daktronics-rtd", options: {}, encode: () => "" }

describe("daktronics-rtd: the real football capture over a pty", () => {
  const res = resources()
  afterEach(() => res.release())

  it("makes one entry per score the board showed, stamped at its frame, with settling on", async () => {
    const frames = captureFrames()
    expect(frames).toHaveLength(247)
    const expected = shownScores(frames)
    expect(expected.length).toBeGreaterThan(10)
    const changing = new Set(expected.map((e) => e.step))
    const { bridge, writer } = await startPtyBridge(res, "football", rawConsole)
    const random = seededRandom(247)
    const written: WriteTimes = []
    // Clock frames come fast; a frame that changes the score comes well after the one before it, as in the match.
    for (const [i, frame] of frames.entries()) {
      await sleep(changing.has(i) ? 250 : 15)
      written[i] = [Date.now()]
      if (random.next() < 0.3) {
        const cut = random.int(1, frame.length - 1)
        writer.write(frame.subarray(0, cut))
        await sleep(random.int(2, 30))
        writer.write(frame.subarray(cut))
      } else {
        writer.write(frame)
      }
    }
    await expectDelivered(bridge, expected, written)
  }, 60_000)
})
