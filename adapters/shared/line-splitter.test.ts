import { describe, expect, it } from "vitest"
import { makeLineSplitter } from "./line-splitter.ts"
import { seededRandom } from "./seeded-random.ts"

const encode = (text: string) => new TextEncoder().encode(text)

const splitter = (maxLineBytes?: number) => {
  const counts = { overlong: 0 }
  const split = makeLineSplitter({ maxLineBytes, onOverlong: () => counts.overlong++ })
  return { counts, split }
}

describe("line splitter", () => {
  it("splits on \\n with an optional \\r and skips empty lines", () => {
    const { split } = splitter()
    expect(split.push(encode("a 1\r\nb 2\n\r\n\nc"))).toEqual(["a 1", "b 2"])
    expect(split.push(encode(" 3\n"))).toEqual(["c 3"])
  })

  it("gives the same lines however the bytes are chunked", () => {
    const text = encode(Array.from({ length: 200 }, (_, i) => `line ${i} é\r\n`).join(""))
    const whole = splitter().split.push(text)
    const random = seededRandom(7)
    for (let round = 0; round < 20; round++) {
      const { split } = splitter()
      expect(random.chunks(text, 100).flatMap((piece) => split.push(piece))).toEqual(whole)
    }
  })

  it("keeps a line of exactly the limit, with or without \\r", () => {
    const { counts, split } = splitter(8)
    expect(split.push(encode("12345678\n12345678\r\n"))).toEqual(["12345678", "12345678"])
    expect(counts.overlong).toBe(0)
  })

  it("discards a longer line once, then resynchronises at the next newline", () => {
    const { counts, split } = splitter(8)
    expect(split.push(encode("123456789\nok\n"))).toEqual(["ok"])
    expect(counts.overlong).toBe(1)
    // A runaway line across many chunks is still one overlong line, and memory stays bounded.
    for (let i = 0; i < 100; i++) expect(split.push(encode("x".repeat(50)))).toEqual([])
    expect(split.push(encode("tail\nnext\n"))).toEqual(["next"])
    expect(counts.overlong).toBe(2)
  })
})
