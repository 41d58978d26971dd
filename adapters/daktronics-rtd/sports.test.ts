import { describe, expect, it } from "vitest"
import { frame } from "./encode.ts"
import { concat, decoderFor, statsOf } from "./test-support.ts"

const T = 1_700_000_000_000
const frames = (...parts: ReadonlyArray<readonly [number, string]>) => concat(...parts.map(([at, text]) => frame(at, text)))

describe("daktronics-rtd: basketball", () => {
  it("waits for both scores, then reports the whole state on every change", () => {
    const decoder = decoderFor("basketball")
    expect(decoder.push(frames([0, "12:34"], [141, " 3"], [107, "  52"]), T)).toEqual([])
    expect(decoder.push(frame(111, "  48"), T)).toEqual([{ receivedAt: T, clock: "12:34", period: 3, home: 52, away: 48 }])
    expect(decoder.push(frame(0, "45.6 "), T + 1)).toEqual([{ receivedAt: T + 1, clock: "45.6", period: 3, home: 52, away: 48 }])
    expect(decoder.push(frame(107, "  54"), T + 2)).toEqual([{ receivedAt: T + 2, clock: "45.6", period: 3, home: 54, away: 48 }])
  })

  it("a frame that changes nothing produces no reading", () => {
    const decoder = decoderFor("basketball")
    expect(decoder.push(frames([107, "   2"], [111, "   0"]), T)).toHaveLength(1)
    expect(decoder.push(frame(107, "   2"), T)).toEqual([])
    expect(decoder.stats.frames).toBe(3)
  })

  it("written blanks are known but absent; garbage never becomes a number", () => {
    const decoder = decoderFor("basketball")
    expect(decoder.push(frames([107, "    "], [111, "    "]), T)).toEqual([{ receivedAt: T }])
    expect(decoder.push(frame(107, " 1X2"), T)).toEqual([{ receivedAt: T }])
    expect(statsOf(decoder).garbledReadings).toBe(1)
    expect(decoder.push(frame(107, "  12"), T)).toEqual([{ receivedAt: T, home: 12 }])
  })

  it("clips writes past the 1024-byte buffer and keeps decoding", () => {
    const decoder = decoderFor("basketball")
    decoder.push(frames([107, "  10"], [111, "  20"]), T)
    expect(decoder.push(frames([1020, "ABCDEFGH"], [5000, "x"]), T)).toEqual([{ receivedAt: T, home: 10, away: 20 }])
    expect(decoder.push(frame(107, "  11"), T)).toEqual([{ receivedAt: T, home: 11, away: 20 }])
    expect(decoder.stats).toMatchObject({ frames: 5, badFrames: 0 })
  })

  it("unknown sport codes read the common fields", () => {
    expect(decoderFor("curling").push(frames([141, " 8"], [107, "   4"], [111, "   5"]), T)).toEqual([
      { receivedAt: T, home: 4, away: 5, period: 8 }
    ])
  })
})

const volleyballState = (live: ReadonlyArray<readonly [number, string]>) =>
  frames([141, " 2"], [214, " 1 0"], [221, "25"], [241, "20"], [200, "<"], ...live)

describe("daktronics-rtd: volleyball", () => {
  it("volleyballPoints 'score' (default) reads live points at 107/111", () => {
    const readings = decoderFor("volleyball").push(volleyballState([[239, "99"], [259, "98"], [107, "  10"], [111, "   7"]]), T)
    expect(readings.at(-1)).toEqual({
      receivedAt: T, period: 2, home: 10, away: 7, sets: [[25, 20], [10, 7]], setsWon: [1, 0], serve: "home"
    })
  })

  it("volleyballPoints 'game' reads live points at 239/259 and ignores 107/111", () => {
    const decoder = decoderFor("volleyball", { volleyballPoints: "game" })
    expect(decoder.push(volleyballState([[107, "  99"], [111, "  98"]]), T)).toEqual([])
    const readings = decoder.push(frames([239, "10"], [259, " 7"]), T)
    expect(readings.at(-1)).toEqual({
      receivedAt: T, period: 2, home: 10, away: 7, sets: [[25, 20], [10, 7]], setsWon: [1, 0], serve: "home"
    })
  })

  it("serve follows the lit indicator; finished games keep their per-game points", () => {
    const decoder = decoderFor("volleyball")
    decoder.push(volleyballState([[107, "   0"], [111, "   0"]]), T)
    const reading = decoder.push(frames([200, "       >"], [223, "18"], [243, "25"], [141, " 3"]), T).at(-1)
    expect(reading).toMatchObject({ serve: "away", period: 3, sets: [[25, 20], [18, 25], [0, 0]] })
  })
})

const tennisState = (points: readonly [string, string], extra: ReadonlyArray<readonly [number, string]> = []) =>
  frames(
    [141, " 2"], [218, "         "], [231, " 1"], [233, " 6"], [235, " 3"], [243, " 3"],
    [245, " 0"], [247, " 4"], [249, " 2"], [257, " 2"], [200, "<"], ...extra, [107, points[0]], [111, points[1]]
  )

describe("daktronics-rtd: tennis", () => {
  it("reads game points, per-set games, sets won and serve", () => {
    const readings = decoderFor("tennis").push(tennisState(["  AD", "  40"]), T)
    expect(readings).toEqual([{
      receivedAt: T, period: 2, gamePoints: ["AD", "40"], tieBreak: false,
      sets: [[6, 4], [3, 2]], setsWon: [1, 0], serve: "home"
    }])
  })

  it("accepts 'A' for advantage and a blank as love", () => {
    const decoder = decoderFor("tennis")
    expect(decoder.push(tennisState(["    ", "   A"]), T).at(-1)?.gamePoints).toEqual(["0", "AD"])
    expect(decoder.push(frame(107, "  15"), T).at(-1)?.gamePoints).toEqual(["15", "AD"])
  })

  it("counts tie-break points as numbers while TIE BREAK is shown", () => {
    const decoder = decoderFor("tennis")
    decoder.push(tennisState(["   0", "   0"], [[243, " 6"], [257, " 6"]]), T)
    const [reading] = decoder.push(frames([218, "TIE BREAK"], [107, "  15"], [111, "   5"]), T).slice(-1)
    expect(reading).toMatchObject({ tieBreak: true, gamePoints: [15, 5], sets: [[6, 4], [6, 6]] })
  })

  it("the current set's live games win over a lagging per-set slot", () => {
    const readings = decoderFor("tennis").push(tennisState(["  30", "  15"], [[243, " 5"], [235, " 4"]]), T)
    expect(readings.at(-1)?.sets).toEqual([[6, 4], [5, 2]])
  })

  it("garbled game points leave gamePoints out", () => {
    const decoder = decoderFor("tennis")
    const reading = decoder.push(tennisState(["  4?", "  15"]), T).at(-1)
    expect(reading?.gamePoints).toBeUndefined()
    expect(statsOf(decoder).garbledReadings).toBeGreaterThan(0)
  })

  it("only the tennis code reads the tennis layout (padel is generic, as in the sport mapping)", () => {
    expect(decoderFor("padel").push(tennisState(["  15", "  30"]), T).at(-1)).toEqual({ receivedAt: T, period: 2, home: 15, away: 30 })
  })
})
