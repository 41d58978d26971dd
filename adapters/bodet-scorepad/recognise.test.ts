import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { decodeWithEveryProtocol, isClean, recognisableProtocols } from "../../src/commissioning/recognise.ts"
import { frame as stramatelFrame } from "../stramatel-452m/encode.ts"
import { concat, consoleStream, docFrame, seededRandom } from "./test-support.ts"

const chunksOf = (bytes: Uint8Array, seed = 1) => seededRandom(seed).chunks(bytes, 64).map((b, i) => ({ bytes: b, receivedAt: i }))
const daktronics = new Uint8Array(readFileSync(new URL("../daktronics-rtd/fixtures/football-j5-capture.bin", import.meta.url)))
const stramatel = concat(...Array.from({ length: 40 }, (_, i) => stramatelFrame(0x33, { home: 50 + i, away: 48, clock: "04:12" })))

/** The protocols that read `bytes` cleanly, as `scorebridge sniff` decides. */
const recognisedIn = (bytes: Uint8Array) => decodeWithEveryProtocol(chunksOf(bytes)).filter(isClean).map((r) => r.protocol)

describe("recognising a Bodet Scorepad from its bytes", () => {
  it("is tried without options", () => {
    expect(recognisableProtocols()).toContain("bodet-scorepad")
  })

  it("recognises a Bodet stream as bodet-scorepad and as nothing else, even opened mid-frame", () => {
    const { bytes } = consoleStream(40)
    const midFrame = concat(docFrame.subarray(9), bytes)
    expect(recognisedIn(midFrame)).toEqual(["bodet-scorepad"])
    const bodet = decodeWithEveryProtocol(chunksOf(midFrame)).find((r) => r.protocol === "bodet-scorepad")!
    expect(bodet).toMatchObject({ frames: 40, badFrames: 0 })
    expect(bodet.sports.map((s) => s.sport).sort()).toEqual(["basketball", "futsal", "handball", "hockey", "unihockey"])
    expect(bodet.sports[0]!.sample).toMatchObject({ home: 39, away: 78, period: 1 })
  })

  it("does not take a Daktronics capture or a Stramatel stream for a Bodet", () => {
    expect(recognisedIn(daktronics)).toEqual(["daktronics-rtd"])
    expect(recognisedIn(stramatel)).toEqual(["stramatel-452m"])
    for (const bytes of [daktronics, stramatel]) {
      const bodet = decodeWithEveryProtocol(chunksOf(bytes)).find((r) => r.protocol === "bodet-scorepad")!
      expect(bodet.frames).toBe(0)
      expect(isClean(bodet)).toBe(false)
    }
  })

  it("recognises nothing in random bytes", () => {
    expect(recognisedIn(seededRandom(5).bytes(8192))).toEqual([])
  })
})
