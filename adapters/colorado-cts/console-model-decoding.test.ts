import { describe, expect, it } from "vitest"
import { raceStream, type RaceScript, receivedChunks } from "./console-model.ts"
import { decoderFor } from "./test-support.ts"

/**
 * A cross-check with the console model (console-model.ts), written apart from this decoder from the
 * same protocol note: the finishes it settles are what the decoder reads, and nothing it sends once
 * (provisional times) or shows between (splits, drop-outs, blank mode) is read as a finish. The
 * decoder's own tests do not lean on the model; this one only confirms the two agree.
 */
const script = (blank?: RaceScript["blank"]): RaceScript => ({
  event: 5,
  heat: 2,
  preStartMs: 3_000,
  runOnMs: 3_000,
  previous: { results: [{ lane: 1, place: 2, timeMs: 30_000 }, { lane: 2, place: 1, timeMs: 29_000 }] },
  lanes: [
    { lane: 1, finishMs: 28_000, provisional: true },
    { lane: 2, finishMs: 29_500, splitMs: [14_000] },
    { lane: 3, off: true },
    { lane: 4, dropOut: { fromMs: 5_000, toMs: 7_000 }, finishMs: 31_000, provisional: true },
    { lane: 11, finishMs: 30_500, provisional: true },
    { lane: 12, finishMs: 33_000 }
  ],
  ...(blank === undefined ? {} : { blank }),
  advanceTo: { event: 6, heat: 1 }
})

describe("colorado-cts decoding the console model's races", () => {
  it.each([
    { name: "a race", blank: undefined },
    { name: "a race blanked for a while", blank: { fromMs: 8_000, toMs: 20_000 } },
    { name: "a race totally blanked for a while", blank: { fromMs: 8_000, toMs: 20_000, total: true } }
  ])("$name: reads the settled finishes and the previous results as stopped with a place, nothing else", ({ blank }) => {
    for (const baudRate of [9600, 2400] as const) {
      for (let seed = 1; seed <= 4; seed++) {
        const stream = raceStream(script(blank), { seed, baudRate })
        const decoder = decoderFor()
        const readings = receivedChunks(stream, 0).flatMap((chunk) => decoder.push(chunk.bytes, chunk.receivedAt))
        const placed = new Set(readings.flatMap((r) => r.race!.lanes.filter((l) => l.place !== undefined).map((l) => `${l.lane} ${l.place} ${l.time}`)))
        const expected = ["1 2 30.00", "2 1 29.00", ...stream.finishes.map((f) => `${f.lane} ${f.place} ${f.time}`)]
        expect([...placed].sort(), `seed ${seed} at ${baudRate}`).toEqual(expected.sort())
        // The last reading shows every settled finish.
        const last = readings.at(-1)!.race!
        for (const f of stream.finishes) expect(last.lanes.find((l) => l.lane === f.lane), `seed ${seed}`).toMatchObject({ place: f.place, time: f.time, timeMs: f.timeMs })
        expect(readings.some((r) => r.race!.blanked === true)).toBe(blank !== undefined)
        // Only lane 3's channel, carrying the time of day in blank mode, is not a lane then.
        expect(decoder.stats.badFrames, `seed ${seed}`).toBe(decoder.stats.implausible)
        expect(decoder.stats.badFrames, `seed ${seed}`).toBeLessThan(decoder.stats.frames * 0.01)
      }
    }
  })
})
