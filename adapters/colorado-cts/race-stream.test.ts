import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { decoderFor, shortRace, swimStream, timeText } from "./test-support.ts"

const decode = (interrupt: boolean, seed = 1) => {
  const stream = swimStream(shortRace, { interrupt, seed })
  const decoder = decoderFor()
  const readings = stream.chunks.flatMap((chunk) => decoder.push(chunk.bytes, chunk.receivedAt))
  return { stream, readings, stats: decoder.stats }
}

const epoch = 1_700_000_000_000
const at = (r: Reading) => r.receivedAt - epoch

describe("colorado-cts: a race on the wire, from the reset to the next reset", () => {
  it.each([true, false])("reads the clock, the event and heat, the lanes running and each settled finish (interruptions: %s)", (interrupt) => {
    const { stream, readings, stats } = decode(interrupt)
    expect(stats).toMatchObject({ badFrames: 0, implausible: 0, skippedBytes: 0 })
    expect(stats.interrupted > 0).toBe(interrupt)

    const before = readings.filter((r) => at(r) < shortRace.startMs)
    expect(new Set(before.map((r) => r.clock))).toEqual(new Set(["0.0"]))
    expect(before.every((r) => r.race!.clockReset && r.race!.clockMs === 0)).toBe(true)
    expect(before.at(-1)!.race).toMatchObject({ event: 12, heat: 3 })

    // The horn: ".0", not a reset; then the clock counts up with the line.
    const first = readings.find((r) => at(r) >= shortRace.startMs)!
    expect(first.race).toMatchObject({ clockMs: 0, clockReset: false })
    expect(first.clock).toBe(".0")
    const running = readings.filter((r) => at(r) > shortRace.startMs + 2_000 && at(r) < shortRace.startMs + 20_000)
    for (const r of running) expect(Math.abs(at(r) - shortRace.startMs - r.race!.clockMs!), r.clock).toBeLessThan(250)
    expect(running.at(-1)!.race!.lanes.slice(0, 6).map((l) => l.state)).toEqual(Array(6).fill("running"))

    // Every finish read is a settled one; none of the provisional times (30 ms lower, no place) ever shows.
    const stopped = new Set(readings.flatMap((r) => r.race!.lanes.filter((l) => l.state === "stopped").map((l) => `${l.lane} ${l.place} ${l.time}`)))
    expect([...stopped].sort()).toEqual(stream.settled.map((s) => `${s.lane} ${s.place} ${s.time}`).sort())
    for (const s of stream.settled) expect(stopped).not.toContain(`${s.lane} undefined ${timeText(s.timeMs - 30)}`)

    // Each finish shows within two seconds of its touch: 0.4 s to the board, then two packets of its channel (a provisional one first: three).
    for (const s of stream.settled) {
      const shown = readings.find((r) => r.race!.lanes.some((l) => l.lane === s.lane && l.place === s.place))!
      expect(at(shown) - shortRace.startMs - s.timeMs, `lane ${s.lane}`).toBeLessThan(2_000)
    }

    // The reset: "0.0" again; the lanes keep the race's results.
    const last = readings.at(-1)!
    expect(last.race).toMatchObject({ clockMs: 0, clockReset: true })
    expect(last.race!.lanes.filter((l) => l.place !== undefined)).toHaveLength(stream.settled.length)
  })

  it("stamps each reading with when the bytes of its packet began to arrive", () => {
    const { stream, readings } = decode(true, 4)
    const arrived = stream.chunks.map((c) => c.receivedAt)
    for (const r of readings) expect(arrived).toContain(r.receivedAt)
  })
})
