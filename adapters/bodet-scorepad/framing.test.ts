import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { message11, penalties } from "./encode.ts"
import { concat, consoleStream, decoderFor, docFrame, seededRandom } from "./test-support.ts"

const scores = (readings: ReadonlyArray<Reading>) => readings.map((r) => [r.home, r.away])

describe("bodet-scorepad framing", () => {
  const { frames, bytes } = consoleStream(12)
  const expected = frames.map((_, i) => [i, 2 * i])

  it("decodes several frames in one read, each stamped with that read", () => {
    const d = decoderFor()
    const readings = d.push(bytes, 42)
    expect(scores(readings)).toEqual(expected)
    expect(readings.every((r) => r.receivedAt === 42)).toBe(true)
    expect(d.stats).toMatchObject({ frames: 12, badFrames: 0, overlong: 0, otherMessages: 24 })
  })

  it("split across two reads at every offset: same readings, each stamped by the read that brought its SOH", () => {
    const starts: Array<number> = []
    for (let at = bytes.indexOf(0x01); at !== -1; at = bytes.indexOf(0x01, at + 1)) starts.push(at)
    const scoreStarts = starts.filter((at) => bytes[at + 5] === 0x31 && bytes[at + 4] === 0x31)
    expect(scoreStarts).toHaveLength(12)
    for (let cut = 1; cut < bytes.length; cut++) {
      const d = decoderFor()
      const readings = [...d.push(bytes.subarray(0, cut), 1000), ...d.push(bytes.subarray(cut), 2000)]
      expect(scores(readings), `cut at ${cut}`).toEqual(expected)
      expect(readings.map((r) => r.receivedAt), `cut at ${cut}`).toEqual(scoreStarts.map((at) => (at < cut ? 1000 : 2000)))
      expect(d.stats, `cut at ${cut}`).toMatchObject({ frames: 12, badFrames: 0, skippedBytes: bytes.length - 12 * 21 })
    }
  })

  it("split into three reads at every pair of offsets within one frame: stamped by the first", () => {
    for (let first = 1; first < docFrame.length; first++) {
      for (let second = first + 1; second < docFrame.length; second++) {
        const d = decoderFor()
        const readings = [
          ...d.push(docFrame.subarray(0, first), 1),
          ...d.push(docFrame.subarray(first, second), 2),
          ...d.push(docFrame.subarray(second), 3)
        ]
        expect(readings, `cuts ${first}, ${second}`).toEqual([{ receivedAt: 1, home: 0, away: 0, period: 1, clock: "1:34" }])
      }
    }
  })

  it("one byte per read: each reading carries the time of its SOH byte", () => {
    const d = decoderFor()
    const readings = Array.from(bytes, (byte, i) => d.push(Uint8Array.of(byte), i)).flat()
    const somStarts = readings.map((r) => r.receivedAt)
    expect(somStarts.every((at) => bytes[at] === 0x01 && bytes[at + 4] === 0x31 && bytes[at + 5] === 0x31)).toBe(true)
    expect(scores(readings)).toEqual(expected)
  })

  it("skips garbage between frames and counts every byte of it", () => {
    const random = seededRandom(12)
    // Anything but SOH: a frame starts nowhere else.
    const garbage = (n: number) => random.bytes(n).map((b) => (b === 0x01 ? 0x00 : b))
    const pieces = frames.flatMap((f) => [garbage(random.int(0, 40)), f])
    const stream = concat(...pieces, garbage(7))
    const d = decoderFor()
    const readings = random.chunks(stream, 50).flatMap((chunk) => d.push(chunk, 1))
    expect(scores(readings)).toEqual(expected)
    expect(d.stats).toMatchObject({ frames: 12, badFrames: 0, overlong: 0, skippedBytes: stream.length - 12 * 21 })
  })

  it("drops a frame cut off by the next SOH, at every length, and decodes the next one", () => {
    for (let length = 1; length < docFrame.length; length++) {
      const d = decoderFor()
      const next = message11({ home: 5, away: 6, period: 2 })
      const readings = d.push(concat(docFrame.subarray(0, length), next), 1)
      expect(scores(readings), `cut after ${length} bytes`).toEqual([[5, 6]])
      expect(d.stats, `cut after ${length} bytes`).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: length })
    }
  })

  it("keeps a frame cut at the end of a read and completes it with the next read", () => {
    const d = decoderFor()
    expect(d.push(concat(docFrame, docFrame.subarray(0, 20)), 1)).toHaveLength(1)
    expect(d.push(docFrame.subarray(20), 2).map((r) => r.receivedAt)).toEqual([1])
  })

  it("bounds the buffer: a frame longer than maxFrameBytes is dropped (overlong), the next one decodes", () => {
    const long = penalties("12", Array.from({ length: 10 }, () => ({ left: "2:00", running: true })))
    expect(long.length).toBe(49)
    const at48 = decoderFor("unihockey", { maxFrameBytes: 48 })
    at48.push(concat(long, docFrame), 1)
    expect(at48.stats).toMatchObject({ frames: 1, overlong: 1, otherMessages: 0, skippedBytes: 49 })
    const at49 = decoderFor("unihockey", { maxFrameBytes: 49 })
    at49.push(concat(long, docFrame), 1)
    expect(at49.stats).toMatchObject({ frames: 1, overlong: 0, otherMessages: 1, skippedBytes: 49 })
  })

  it("never holds junk without ETX: a SOH and a megabyte of data is one overlong frame, skipped", () => {
    const d = decoderFor("unihockey", { maxFrameBytes: 4096 })
    const junk = new Uint8Array(1 << 20).fill(0x35)
    const readings = [...d.push(Uint8Array.of(0x01), 1), ...d.push(junk, 2), ...d.push(docFrame, 3)]
    expect(readings.map((r) => r.receivedAt)).toEqual([3])
    expect(d.stats).toMatchObject({ frames: 1, overlong: 1, skippedBytes: junk.length + 1 })
  })

  it("skips a megabyte without any SOH, byte for byte", () => {
    const d = decoderFor()
    const junk = seededRandom(7).bytes(1 << 20).map((b) => (b === 0x01 ? 0x02 : b))
    expect(d.push(junk, 1)).toEqual([])
    expect(d.stats).toMatchObject({ frames: 0, badFrames: 0, overlong: 0, skippedBytes: junk.length })
  })

  it("a SOH where the LRC should be: the frame was cut after ETX, a new one starts there", () => {
    const d = decoderFor()
    const readings = d.push(concat(docFrame.subarray(0, 20), docFrame), 1)
    expect(readings).toHaveLength(1)
    expect(d.stats).toMatchObject({ frames: 1, badFrames: 0, skippedBytes: 20 })
  })

  it("reads the smallest maxFrameBytes the config allows as room for one message 11", () => {
    expect(decoderFor("unihockey", { maxFrameBytes: 16 }).push(docFrame, 1)).toHaveLength(1)
  })
})
