import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { decodeWithEveryProtocol, isClean, recognisableProtocols } from "../../src/commissioning/recognise.ts"
import { message11 } from "../bodet-scorepad/encode.ts"
import { gameStream } from "../fairplay-mp70/test-support.ts"
import { frame as stramatelFrame } from "../stramatel-452m/encode.ts"
import { concat, seededRandom, shortRace, swimStream } from "./test-support.ts"

const chunksOf = (bytes: Uint8Array, seed = 1) => seededRandom(seed).chunks(bytes, 64).map((b, i) => ({ bytes: b, receivedAt: i }))
const coloradoResult = (bytes: Uint8Array) => decodeWithEveryProtocol(chunksOf(bytes)).find((r) => r.protocol === "colorado-cts")!
const cleanProtocols = (bytes: Uint8Array) => decodeWithEveryProtocol(chunksOf(bytes)).filter(isClean).map((r) => r.protocol)

const race = { ...shortRace, resetMs: 20_000, durationMs: 24_000, lanes: shortRace.lanes.map((l) => (l.finishMs === undefined ? l : { ...l, finishMs: l.finishMs - 15_000 })) }

describe("recognising a Colorado console from its bytes", () => {
  it("is tried with its default options {}", () => {
    expect(recognisableProtocols()).toContain("colorado-cts")
  })

  it.each([true, false])("reads a race on the wire cleanly, and nothing else does (clock packets interrupting others: %s)", (interrupt) => {
    const { bytes } = swimStream(race, { interrupt })
    expect(cleanProtocols(bytes)).toEqual(["colorado-cts"])
    const result = coloradoResult(bytes)
    expect(result.badFrames).toBe(0)
    expect(result.frames).toBeGreaterThan(2_000)
    // Swimming reads the race board; water polo, with no channel configured, shows what the board shows.
    expect(result.sports.map((s) => s.sport)).toEqual(["swimming", "waterpolo"])
    expect(result.sports[0]!.sample!.race).toMatchObject({ event: 12, heat: 3, clockReset: true })
  })

  it("still reads it cleanly when the port was opened in the middle of a packet", () => {
    const { bytes } = swimStream(race)
    expect(bytes[5]! & 0x80).toBe(0)
    expect(cleanProtocols(bytes.subarray(5))).toEqual(["colorado-cts"])
  })

  it("does not take the other consoles' streams for a Colorado", () => {
    const daktronics = new Uint8Array(readFileSync(new URL("../daktronics-rtd/fixtures/football-j5-capture.bin", import.meta.url)))
    const stramatel = concat(...Array.from({ length: 40 }, (_, i) => stramatelFrame(0x33, { home: 50 + i, away: 48, clock: "04:12" })))
    const bodet = concat(...Array.from({ length: 40 }, (_, i) => message11({ clock: `9:${String(59 - i).padStart(2, "0")}`, home: i >> 2, away: 1, period: 2 })))
    for (const bytes of [daktronics, stramatel, bodet, gameStream(12).bytes]) expect(isClean(coloradoResult(bytes))).toBe(false)
  })

  it("recognises nothing in random bytes, where every byte decodes as an address or a digit", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const noise = seededRandom(seed).bytes(8192)
      expect(cleanProtocols(noise), `seed ${seed}`).toEqual([])
      const result = coloradoResult(noise)
      expect(result.badFrames, `seed ${seed}`).toBeGreaterThan(result.frames * 0.1)
    }
  })
})
