import { resultHoldMs } from "../../src/highlights/race-lanes.ts"
import { describe, expect, it } from "vitest"
import { meetStream, type RaceScript, receivedChunks } from "../../adapters/colorado-cts/console-model.ts"
import { coloradoCts } from "../../adapters/colorado-cts/index.ts"
import { RaceFinishes } from "../../src/highlights/race-finishes.ts"

/**
 * The race tracker behind the colorado-cts decoder, on the bytes of the console model (written
 * apart from both, from the protocol note): the finishes it makes are the model's settled ones —
 * lane, place, time, the event/heat of the race's start — each stamped within 0.15 s of its touch,
 * and nothing else (previous results, provisional times, splits, drop-outs, off lanes, blank modes).
 */

const epoch = 1_700_000_000_000

const meet: ReadonlyArray<RaceScript> = [
  {
    event: 7, heat: 2, preStartMs: 6_000, runOnMs: 4_000, afterMs: 6_000,
    previous: { results: [{ lane: 1, place: 3, timeMs: 31_120 }, { lane: 2, place: 1, timeMs: 29_870 }, { lane: 4, place: 2, timeMs: 30_050 }] },
    // The operator advances to the next race while this one is still on.
    advanceAtMs: 31_500, advanceTo: { event: 7, heat: 3 },
    blank: { fromMs: 12_000, toMs: 16_000 },
    lanes: [
      { lane: 1, finishMs: 29_412, provisional: true },
      { lane: 2, finishMs: 30_268, splitMs: [14_100] },
      { lane: 3, off: true },
      { lane: 4, finishMs: 31_777, dropOut: { fromMs: 5_000, toMs: 8_000 }, provisional: true },
      { lane: 5, finishMs: 28_903 },
      { lane: 6, finishMs: 33_050, provisional: true },
      { lane: 11, finishMs: 30_911 },
      { lane: 12 }
    ]
  },
  {
    event: 7, heat: 3, preStartMs: 8_000, runOnMs: 3_000,
    blank: { fromMs: 40_000, toMs: 44_000, total: true },
    lanes: [
      { lane: 1, finishMs: 62_345, provisional: true },
      { lane: 2, finishMs: 61_010 },
      { lane: 4, finishMs: 65_432, splitMs: [30_500] },
      { lane: 5, finishMs: 41_800 }
    ]
  }
]

describe("the race tracker on the console model's meet, through the colorado-cts decoder", () => {
  it.each([9600, 2400] as const)("at %i baud: the model's finishes, each stamped within 0.15 s of its touch, and nothing else", (baudRate) => {
    for (let seed = 1; seed <= 3; seed++) {
      const stream = meetStream(meet, { seed, baudRate })
      const decoder = coloradoCts.makeDecoder({ sport: "swimming" })
      const tracker = new RaceFinishes()
      const made = receivedChunks(stream, epoch).flatMap((chunk) =>
        decoder.push(chunk.bytes, chunk.receivedAt).flatMap((reading) => tracker.onReading(reading)))
      const key = (f: { lane: number; event?: number; heat?: number }) => `${f.event}/${f.heat} lane ${f.lane}`
      expect(made.map(key).sort(), `seed ${seed}`).toEqual(stream.finishes.map(key).sort())
      for (const truth of stream.finishes) {
        const finish = made.find((f) => key(f) === key(truth))!
        expect({ place: finish.place, time: finish.time, timeMs: finish.timeMs }, `seed ${seed} ${key(truth)}`)
          .toEqual({ place: truth.place, time: truth.time, timeMs: truth.timeMs })
        expect(Math.abs(finish.at - (epoch + truth.touchMs)), `seed ${seed} ${key(truth)}: at − touch`).toBeLessThanOrEqual(150)
      }
    }
  })
})

describe("a bridge restarted mid-race on the console model's meet", () => {
  it("joins the race: the finishes made before (from the outbox) are not made again, the ones touched while it was down are, within 0.15 s", () => {
    for (let seed = 1; seed <= 3; seed++) {
      const stream = meetStream(meet, { seed })
      const chunks = receivedChunks(stream, epoch)
      // Down from 31.0 s to 32.5 s after the first horn: lane 5 settled (and held) before, lanes 2 and 11 touched before the
      // restart but not yet held long enough to be made.
      const downAt = epoch + stream.startMs + 30_000 + resultHoldMs
      const upAt = downAt + 1_500
      const first = coloradoCts.makeDecoder({ sport: "swimming" })
      const before = new RaceFinishes()
      const early = chunks.filter((c) => c.receivedAt < downAt).flatMap((c) => first.push(c.bytes, c.receivedAt).flatMap((r) => before.onReading(r)))
      const second = coloradoCts.makeDecoder({ sport: "swimming" })
      const after = new RaceFinishes({ made: early.map(({ lane, place, time, event, heat, at }) => ({ lane, place, time, event, heat, at })) })
      const late = chunks.filter((c) => c.receivedAt >= upAt).flatMap((c) => second.push(c.bytes, c.receivedAt).flatMap((r) => after.onReading(r)))
      expect(early.map((f) => f.lane), `seed ${seed}`).toContain(5)
      expect(late.filter((f) => epoch + stream.finishes.find((t) => t.lane === f.lane)!.touchMs < upAt).map((f) => f.lane), `seed ${seed}`).toEqual(expect.arrayContaining([2, 11]))
      const key = (f: { lane: number; event?: number; heat?: number }) => `${f.event}/${f.heat} lane ${f.lane}`
      expect([...early, ...late].map(key).sort(), `seed ${seed}`).toEqual(stream.finishes.map(key).sort())
      for (const finish of late) {
        const truth = stream.finishes.find((f) => key(f) === key(finish))!
        expect(Math.abs(finish.at - (epoch + truth.touchMs)), `seed ${seed} ${key(truth)}: at − touch`).toBeLessThanOrEqual(150)
      }
    }
  })
})
