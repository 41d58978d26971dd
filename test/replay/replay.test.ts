import { describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import type { Decoder } from "../../adapters/decoder.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { evenlyTimed } from "../../src/replay/chunk-timing.ts"
import { replay } from "../../src/replay/replay.ts"
import {
  cleanCapturePath,
  entriesOf,
  ETB,
  expectedGenericChanges,
  fixture,
  readingsOf,
  summaryOf,
  SYN,
  terminalCapturePath
} from "./support.ts"

const clean = fixture(cleanCapturePath)
const terminal = fixture(terminalCapturePath)
const daktronics = (sport: string): Decoder => protocols["daktronics-rtd"]!.makeDecoder({ sport })
/** Index of the SYN opening the longest SYN…ETB frame. */
const longestFrameStart = (bytes: Uint8Array): number => {
  let best = { length: -1, start: -1 }
  for (let start = bytes.indexOf(SYN); start >= 0; start = bytes.indexOf(SYN, start + 1)) {
    const end = bytes.indexOf(ETB, start)
    if (end >= 0 && end - start > best.length) best = { length: end - start, start }
  }
  return best.start
}
const replayAll = (decoder: Decoder, sport: string, chunks: ReadonlyArray<ReceivedChunk>) => [...replay(decoder, sport, chunks)]
const even = (bytes: Uint8Array, chunkBytes = 64, chunkMs = 0, start = 0) => evenlyTimed(bytes, { start, chunkMs, chunkBytes })

describe("replay: the real Daktronics football capture", () => {
  const records = replayAll(daktronics("football"), "football", even(clean))
  const readings = readingsOf(records)
  const entries = entriesOf(records)

  it("decodes every frame, none bad, and counts what it printed", () => {
    const summary = summaryOf(records)
    // One SYN per frame, counted straight from the bytes.
    const framesInFile = clean.filter((b) => b === SYN).length
    expect(summary).toMatchObject({ badFrames: 0, overlong: 0, skippedBytes: 0, bytes: clean.length })
    // Daktronics also reports its own counters; every frame is either data or not.
    expect(summary.frames + (summary["nonDataFrames"] as number)).toBe(framesInFile)
    expect(summary.readings).toBe(readings.length)
    expect(summary.entries).toBe(entries.length)
    expect(summary.chunks).toBe(Math.ceil(clean.length / 64))
    expect(records.filter((r) => r.type === "summary")).toHaveLength(1)
  })

  it("passes the decoder's readings through unchanged", () => {
    const direct = daktronics("football").push(clean, 0)
    expect(readings.map((r) => r.reading)).toEqual(direct)
    expect(readings.length).toBeGreaterThan(10)
  })

  it("makes one entry per distinct score change, each right after the reading that caused it", () => {
    const changes = expectedGenericChanges(readings.map((r) => r.reading))
    expect(changes.length).toBeGreaterThan(10)
    expect(changes.length).toBeLessThan(readings.length)
    expect(entries).toHaveLength(changes.length)
    for (const [n, readingIndex] of changes.entries()) {
      const cause = readings[readingIndex]!
      const entry = entries[n]!
      // In the output the entry line follows its reading line directly.
      expect(records[records.indexOf(cause) + 1]).toBe(entry)
      expect(entry.entry).toEqual({
        timeStamp: cause.reading.receivedAt,
        left: cause.reading.home,
        right: cause.reading.away,
        period: cause.reading.period ?? 0
      })
      expect(entry.at).toBe(cause.at)
    }
  })

  it("stamps each record with the time of the chunk that brought its frame's first byte", () => {
    const start = 1_700_000_000_000
    const timed = replayAll(daktronics("football"), "football", even(clean, 100, 10, start))
    const times = readingsOf(timed).map((r) => r.at)
    expect(times.every((t) => (t - start) % 10 === 0)).toBe(true)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    // The last reading comes from the closing full dump, the capture's longest frame
    // (the frames after it repeat what it showed, so they make no reading).
    expect(times.at(-1)).toBe(start + Math.floor(longestFrameStart(clean) / 100) * 10)
    for (const entry of entriesOf(timed)) expect(entry.entry.timeStamp).toBe(entry.at)
  })

  it("gives the same records whatever the chunk size, when chunks share one time", () => {
    const whole = replayAll(daktronics("football"), "football", [{ bytes: clean, receivedAt: 0 }])
    const byteByByte = replayAll(daktronics("football"), "football", even(clean, 1))
    const strip = (rs: typeof whole) => rs.map((r) => r.type === "summary" ? { ...r, chunks: 0 } : r)
    expect(strip(byteByByte)).toEqual(strip(whole))
  })
})

describe("replay: the terminal capture (control bytes stripped)", () => {
  it("gives no reading and no entry, only a summary", () => {
    const records = replayAll(daktronics("football"), "football", even(terminal))
    expect(records).toHaveLength(1)
    expect(summaryOf(records)).toMatchObject({ frames: 0, readings: 0, entries: 0, bytes: terminal.length, skippedBytes: terminal.length })
  })
})

describe("replay: sport mapping follows the daemon's rule", () => {
  it("makes volleyball entries from the same readings when asked for volleyball", () => {
    // Same bytes, another sport: the entry shape changes, the change rule does not.
    const records = replayAll(daktronics("volleyball"), "volleyball", even(clean))
    const entries = entriesOf(records)
    expect(entries.length).toBeGreaterThan(0)
    for (const { entry } of entries) expect(entry).toHaveProperty("scoreValue.gameScores")
  })
})
