import { describe, expect, it } from "vitest"
import { emptyStats } from "../decoder.ts"
import { lines } from "../lines/index.ts"
import { MalformedFrame } from "./field-values.ts"
import { ReadingBatch } from "./reading-batch.ts"

describe("a decoder's frames read into a batch", () => {
  it("counts a frame rejected as malformed among the bad frames, with no reading", () => {
    const stats = emptyStats()
    const batch = new ReadingBatch()
    batch.read(stats, () => ({ receivedAt: 1, home: 3, away: 5 }))
    batch.read(stats, () => {
      throw new MalformedFrame("byte 9 is not a digit")
    })
    expect(batch.take()).toEqual([{ receivedAt: 1, home: 3, away: 5 }])
    expect(stats).toMatchObject({ frames: 1, badFrames: 1 })
  })

  it("lets a bug in the decoder through: a TypeError is no bad frame", () => {
    const stats = emptyStats()
    const batch = new ReadingBatch()
    const buggy = (): never => (undefined as unknown as { field: () => never }).field()
    expect(() => batch.read(stats, buggy)).toThrow(TypeError)
    expect(stats).toMatchObject({ frames: 0, badFrames: 0 })
  })

  it("is how the text decoders read their lines: a malformed line is counted, the next one reads", () => {
    const decoder = lines.makeDecoder({ sport: "basketball", pattern: "^(?<home>\\d+)-(?<away>\\d+)$", maxFrameBytes: 256 } as never)
    expect(decoder.push(new TextEncoder().encode("3-x\n4-5\n"), 7)).toEqual([{ receivedAt: 7, home: 4, away: 5 }])
    expect(decoder.stats).toMatchObject({ frames: 1, badFrames: 1 })
  })
})
