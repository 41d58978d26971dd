import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { decodeWithEveryProtocol, isClean, recognisableProtocols } from "../../src/commissioning/recognise.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { message11 } from "../bodet-scorepad/encode.ts"
import { protocols } from "../registry.ts"
import { frame as stramatelFrame } from "../stramatel-452m/encode.ts"
import { concat, gameStream, seededRandom } from "./test-support.ts"

const chunksOf = (bytes: Uint8Array, seed = 1): Array<ReceivedChunk> =>
  seededRandom(seed).chunks(bytes, 64).map((piece, i) => ({ bytes: piece, receivedAt: i }))

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../daktronics-rtd/fixtures/${name}`, import.meta.url)))

/** The protocols that read the bytes cleanly, as `sniff` decides. */
const cleanProtocols = (bytes: Uint8Array) => decodeWithEveryProtocol(chunksOf(bytes)).filter(isClean).map((r) => r.protocol)
const fairplayResult = (bytes: Uint8Array) => decodeWithEveryProtocol(chunksOf(bytes)).find((r) => r.protocol === "fairplay-mp70")!
/** The result of one variant alone, as sniff decodes it. */
const variantResult = (bytes: Uint8Array, variant: "rink" | "proline") => {
  const decoder = protocols["fairplay-mp70"]!.makeDecoder({ sport: "hockey", ...(variant === "proline" ? { variant } : {}) })
  for (const chunk of chunksOf(bytes)) decoder.push(chunk.bytes, chunk.receivedAt)
  return decoder.stats
}

/** Only the protocol that made the stream, where it is in this build. */
const onlyNative = (native: string) => (protocols[native] === undefined ? [] : [native])

const stramatelStream = concat(...Array.from({ length: 20 }, (_, i) => stramatelFrame(0x33, { home: 50 + i, away: 48, clock: "04:12" })))
const bodetStream = concat(...Array.from({ length: 20 }, (_, i) => message11({ clock: `${9 - Math.floor(i / 4)}:${String(59 - i).padStart(2, "0")}`, home: i >> 2, away: 1, period: 2 })))

describe("fairplay-mp70 among the protocols sniff tries", () => {
  it("is tried with no options", () => {
    expect(recognisableProtocols()).toContain("fairplay-mp70")
  })

  it.each(["rink", "proline"] as const)("recognises a Fair-Play stream of variant %s as fairplay-mp70, that variant, and as nothing else", (variant) => {
    const layout = variant === "proline" ? { variant } : {}
    const { bytes, packets } = gameStream(12, 120, layout)
    expect(cleanProtocols(bytes)).toEqual(["fairplay-mp70"])
    const result = fairplayResult(bytes)
    expect(result).toMatchObject({ frames: packets.length, badFrames: 0, variant: { name: variant, options: layout } })
    // The stream does not name its sport: every sport the layout fits reads it, as sniff then says.
    expect(result.sports.map((s) => s.sport)).toEqual([...protocols["fairplay-mp70"]!.sports])
  })

  it("tells the variants apart by packet lengths and where the digits are", () => {
    const rink = gameStream(14).bytes
    const proline = gameStream(14, 120, { variant: "proline" }).bytes
    // Rink packets are all too short for ProLine.
    expect(variantResult(rink, "proline")).toMatchObject({ frames: 0 })
    // ProLine C packets are long enough for the rink layout (blank period: none shown), but no H packet reads.
    const prolineAsRink = variantResult(proline, "rink")
    expect(prolineAsRink.badFrames).toBeGreaterThan(0.1 * prolineAsRink.frames)
    // Even with H packets rarer than that, the variant with more good frames wins.
    const fewStates = gameStream(15, 400, { variant: "proline" }).packets.filter((p, i) => p[1] === 0x43 || i % 40 === 0)
    const fewAsRink = variantResult(concat(...fewStates), "rink")
    expect(fewAsRink.badFrames, "bad share low enough to look clean as rink").toBeLessThanOrEqual(0.1 * fewAsRink.frames)
    expect(fairplayResult(concat(...fewStates)).variant?.name).toBe("proline")
  })

  it("still recognises it when the port was opened mid-packet", () => {
    const { bytes } = gameStream(13)
    expect(cleanProtocols(bytes.subarray(37))).toEqual(["fairplay-mp70"])
    expect(cleanProtocols(gameStream(13, 120, { variant: "proline" }).bytes.subarray(37))).toEqual(["fairplay-mp70"])
  })

  it("does not claim Stramatel, Daktronics or Bodet streams", () => {
    for (const [native, bytes] of [
      ["stramatel-452m", stramatelStream],
      ["daktronics-rtd", fixture("football-j5-capture.bin")],
      ["bodet-scorepad", bodetStream]
    ] as const) {
      expect(cleanProtocols(bytes), native).toEqual(onlyNative(native))
      expect(fairplayResult(bytes), native).toMatchObject({ frames: 0, sports: [] })
    }
    expect(cleanProtocols(fixture("football-j6-terminal-capture.bin"))).toEqual([])
  })

  it("recognises nothing in random bytes rich in STX, ETX and type letters", () => {
    const random = seededRandom(9)
    const telling = [0x02, 0x03, 0x43, 0x48, 0x20, 0x31]
    const noise = Uint8Array.from({ length: 8000 }, () => (random.next() < 0.4 ? telling[random.int(0, 5)]! : random.int(0, 255)))
    expect(isClean(fairplayResult(noise))).toBe(false)
  })
})
