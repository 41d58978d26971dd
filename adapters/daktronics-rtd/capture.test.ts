import { describe, expect, it } from "vitest"
import { concat, decoderFor, fixture, pushInChunks, seededRandom, statsOf } from "./test-support.ts"

const clean = fixture("football-j5-capture.bin")
const terminal = fixture("football-j6-terminal-capture.bin")

/**
 * An independent, deliberately naive reading of the capture: split on ETB,
 * take each `004210` frame's offset and data, and note the home (107) and
 * guest (111) scores whenever a frame's data covers them.
 */
const scoreStatesInCapture = (bytes: Uint8Array) => {
  const text = String.fromCharCode(...bytes)
  let home: string | undefined
  let away: string | undefined
  const states: Array<[number, number]> = []
  for (const raw of text.split("\x17")) {
    const match = /\x01004210(\d{4})\x02([^\x04]*)\x04/.exec(raw)
    if (match === null) continue
    const offset = Number(match[1])
    const data = match[2] ?? ""
    const covers = (at: number) => offset <= at && offset + data.length >= at + 4
    if (covers(107)) home = data.slice(107 - offset, 111 - offset)
    if (covers(111)) away = data.slice(111 - offset, 115 - offset)
    if (home === undefined || away === undefined) continue
    const state: [number, number] = [Number(home), Number(away)]
    const last = states.at(-1)
    if (last === undefined || last[0] !== state[0] || last[1] !== state[1]) states.push(state)
  }
  return states
}

const distinctScores = (readings: ReadonlyArray<{ home?: number; away?: number }>) => {
  const states: Array<[number | undefined, number | undefined]> = []
  for (const { home, away } of readings) {
    const last = states.at(-1)
    if (last === undefined || last[0] !== home || last[1] !== away) states.push([home, away])
  }
  return states
}

describe("daktronics-rtd: real football capture (J5 port)", () => {
  it("finds all 247 frames, every checksum verified", () => {
    // 247 is the number of SYN bytes in the file (one per frame), counted here independently.
    expect(clean.filter((b) => b === 0x16).length).toBe(247)
    const decoder = decoderFor("football")
    decoder.push(clean, 1)
    const stats = statsOf(decoder)
    expect(stats.frames + stats.nonDataFrames).toBe(247)
    expect(stats).toMatchObject({ badFrames: 0, overlong: 0, skippedBytes: 0, nonDataFrames: 1, garbledReadings: 0 })
  })

  it("reports the scores the capture contains, in order", () => {
    const readings = decoderFor("football").push(clean, 1)
    const expected = scoreStatesInCapture(clean)
    expect(expected.length).toBeGreaterThan(10)
    expect(distinctScores(readings)).toEqual(expected)
    // Checked by hand with `xxd`: the first home write is "  41" at 107 (guest already " 102"),
    // and the closing full dump (offset 0000, 345 bytes) shows 18–70 in period 2 at 15:39.
    expect(readings[0]).toMatchObject({ home: 41, away: 102 })
    expect(readings.at(-1)).toEqual({ receivedAt: 1, clock: "15:39", home: 18, away: 70, period: 2 })
  })

  it("emits nothing before both score fields have been written", () => {
    const readings = decoderFor("football").push(clean, 1)
    // The guest score is first written by frame 7, the home score only by frame 22: clock
    // frames in between must not produce a reading with half the score missing.
    expect(readings.every((r) => r.home !== undefined && r.away !== undefined)).toBe(true)
  })

  it("yields the same readings whatever the chunk sizes", () => {
    const whole = decoderFor("football")
    const expected = whole.push(clean, 1)
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const chunked = decoderFor("football")
      expect(pushInChunks(chunked, clean, seededRandom(seed), seed % 2 === 0 ? 500 : 7)).toEqual(expected)
      expect(chunked.stats).toEqual(whole.stats)
    }
  })

  it("stamps each reading with the receive time of the chunk that brought its frame's first byte", () => {
    const decoder = decoderFor("football")
    // Cut the capture inside a frame: its SYN arrives in the first chunk, its ETB in the second.
    const cut = clean.lastIndexOf(0x16, 4000) + 5
    const first = decoder.push(clean.subarray(0, cut), 100)
    const second = decoder.push(clean.subarray(cut), 200)
    expect(first.length).toBeGreaterThan(0)
    expect(second.length).toBeGreaterThan(0)
    expect(first.every((r) => r.receivedAt === 100)).toBe(true)
    // Only the reading of the frame that was cut (if it changed anything) counts from the first chunk.
    const fromFirst = second.filter((r) => r.receivedAt === 100).length
    expect(fromFirst).toBeLessThanOrEqual(1)
    expect(second.slice(fromFirst).every((r) => r.receivedAt === 200)).toBe(true)
  })
})

describe("daktronics-rtd: terminal capture (control bytes stripped)", () => {
  it("produces no reading at all", () => {
    const decoder = decoderFor("football")
    expect(decoder.push(terminal, 1)).toEqual([])
    expect(pushInChunks(decoderFor("football"), terminal, seededRandom(9), 300)).toEqual([])
    expect(decoder.stats).toMatchObject({ frames: 0, skippedBytes: terminal.length })
  })

  it("does not disturb a clean stream that follows it", () => {
    const expected = decoderFor("football").push(clean, 1)
    expect(decoderFor("football").push(concat(terminal, clean), 1)).toEqual(expected)
  })
})
