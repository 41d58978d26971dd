import { describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { parseFieldRange } from "../../adapters/shared/field-ranges.ts"
import { type Candidate, type Finding, findLayout } from "../../src/commissioning/layout-finder.ts"
import { framesOf, type LearnableProtocol } from "../../src/commissioning/layout-frames.ts"
import type { Observation, ObservedField } from "../../src/commissioning/layout-observation.ts"
import { learnReport } from "../../src/commissioning/layout-report.ts"
import type { Reading } from "../../src/domain/reading.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { parse as parseYaml } from "yaml"
import {
  type ConsoleLayout,
  fairplayPacket,
  gameChunks,
  hockeyGame,
  mmss,
  noteAt,
  right,
  rtdWrites,
  type Shown,
  stramatelFrame,
  t0,
  textLine
} from "./learn-support.ts"

const find = (protocol: LearnableProtocol, layout: ConsoleLayout, moments: ReadonlyArray<Shown>, noted: ReadonlyArray<Observation>) =>
  findLayout(framesOf(protocol, gameChunks(layout, moments)).states, noted)

const byField = (findings: ReadonlyArray<Finding>) => Object.fromEntries(findings.map((f) => [f.field, f])) as Partial<Record<ObservedField, Finding>>

/** Each field's found range as `kind first-last`, or its tag when not found. */
const ranges = (findings: ReadonlyArray<Finding>) =>
  Object.fromEntries(findings.map((f) => [f.field, f._tag === "found" ? `${f.range.kind} ${f.range.first}-${f.range.last}` : f._tag]))

const blocks = (findings: ReadonlyArray<Finding>) =>
  Object.fromEntries(findings.map((f) => [f.field, f._tag === "found" ? `${f.block.kind} ${f.block.first}-${f.block.last}` : f._tag]))

const report = (protocol: LearnableProtocol, chunks: ReadonlyArray<ReceivedChunk>, noted: ReadonlyArray<Observation>) =>
  learnReport({ protocol, describeTime: (at) => `${(at - t0) / 1000} s`, forSupport: "capture.ndjson" }, chunks, noted)

/** The options the report prints under `options:` (YAML), as a place's config would hold them. */
const printedOptions = (lines: ReadonlyArray<string>): Record<string, unknown> => {
  const start = lines.indexOf("Options block to paste (under the place's scoreboard:):")
  expect(start, lines.join("\n")).toBeGreaterThanOrEqual(0)
  const block = lines.slice(start + 1).filter((l) => l.startsWith("      "))
  return (parseYaml(block.join("\n")) as { options?: Record<string, unknown> }).options ?? {}
}

/** The adapter, configured with the printed block, reads each noted field as noted at its moment (the last value at or before it). */
const expectDecodesAsNoted = (protocol: string, sport: string, options: Record<string, unknown>, chunks: ReadonlyArray<ReceivedChunk>, noted: ReadonlyArray<Observation>) => {
  const decoder = protocols[protocol]!.makeDecoder({ ...options, sport })
  const readings: Array<Reading> = chunks.flatMap((c) => [...decoder.push(c.bytes, c.receivedAt)])
  expect(decoder.stats.badFrames, "bad frames").toBe(0)
  for (const moment of noted) {
    const before = readings.filter((r) => r.receivedAt <= moment.at)
    for (const [field, value] of Object.entries(moment.noted)) {
      const last = before.findLast((r) => r[field as ObservedField] !== undefined)
      expect(String(last?.[field as ObservedField]), `${field} at ${moment.when}`).toBe(value)
    }
  }
}

const penalty = (s: Shown): ReadonlyArray<readonly [number, string]> => (s.other === undefined ? [] : [[16, "12"], [19, right(s.other, 3)]])

/** Fair-Play variant A, as a real MP-70 at a rink sent it: C 11 bytes (clock 2–5, period 7, `60`), H 55 bytes (home 13, guest 39, penalties). */
const rink: ConsoleLayout = (s) => [
  fairplayPacket("C", 11, [[2, mmss(s.clock)], [7, String(s.period)], [8, "60"]]),
  fairplayPacket("H", 55, [[12, right(s.home, 2)], [38, right(s.away, 2)], ...penalty(s)])
]

/** Fair-Play with every field moved: period in H, short packets, the clock further in. */
const fairplayMoved: ConsoleLayout = (s) => [
  fairplayPacket("C", 14, [[6, mmss(s.clock)], [11, "00"]]),
  fairplayPacket("H", 62, [[30, right(s.home, 2)], [35, right(s.away, 2)], [57, String(s.period)], ...(s.other === undefined ? [] : [[8, right(s.other, 3)] as const])])
]

/** Fair-Play ProLine-like: 80-byte packets, 3-byte scores with a trailing blank, period in H 45. */
const proline: ConsoleLayout = (s) => [
  fairplayPacket("C", 80, [[2, mmss(s.clock)]]),
  fairplayPacket("H", 80, [[13, `${right(s.home, 2)} `], [29, `${right(s.away, 2)} `], [45, String(s.period)], ...(s.other === undefined ? [] : [[52, mmss(`${Math.floor(s.other / 100)}:${String(s.other % 100).padStart(2, "0")}`)] as const])])
]

describe("learn's layout finder: Fair-Play MP-70", () => {
  it("finds variant A's fields where the real console sends them, and widens the scores for two digits", () => {
    const moments = hockeyGame.slice(0, 4)
    const noted = [1, 2, 3].map((i) => noteAt(moments, i))
    const findings = find("fairplay-mp70", rink, moments, noted)
    expect(ranges(findings)).toEqual({ home: "H 13-13", away: "H 39-39", period: "C 7-7", clock: "C 2-5" })
    expect(blocks(findings)).toEqual({ home: "H 12-14", away: "H 38-40", period: "C 7-7", clock: "C 2-5" })
  })

  it("reads a two-digit score from the bytes it was seen in", () => {
    const noted = [1, 3, 4].map((i) => noteAt(hockeyGame, i))
    expect(ranges(find("fairplay-mp70", rink, hockeyGame, noted))).toMatchObject({ home: "H 12-13", away: "H 39-39" })
  })

  it.each([
    { name: "moved fields, period in H", layout: fairplayMoved, expected: { home: "H 30-31", away: "H 36-36", period: "H 57-57", clock: "C 6-9" } },
    { name: "ProLine 80-byte packets", layout: proline, expected: { home: "H 13-14", away: "H 30-30", period: "H 45-45", clock: "C 2-5" } }
  ])("finds fields the console moved: $name", ({ layout, expected }) => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    expect(ranges(find("fairplay-mp70", layout, hockeyGame, noted))).toEqual(expected)
  })

  it("prints a fields block the Fair-Play adapter reads the recording with as noted", () => {
    for (const layout of [rink, fairplayMoved, proline]) {
      const chunks = gameChunks(layout, hockeyGame)
      const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
      const { exitCode, lines } = report("fairplay-mp70", chunks, noted)
      expect(exitCode, lines.join("\n")).toBe(0)
      const options = printedOptions(lines)
      expect(Object.keys(options.fields as object).sort()).toEqual(["away", "clock", "home", "period"])
      expectDecodesAsNoted("fairplay-mp70", "hockey", options, chunks, noted)
    }
  })

  it("writes each range so the shared field-range parser reads back the bytes found", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const chunks = gameChunks(rink, hockeyGame)
    const found = blocks(findLayout(framesOf("fairplay-mp70", chunks).states, noted))
    const fields = printedOptions(report("fairplay-mp70", chunks, noted).lines).fields as Record<string, string>
    expect(parseFieldRange(fields.home!)).toEqual({ type: "H", typeByte: 0x48, first: 11, last: 13 })
    expect(parseFieldRange(fields.period!)).toEqual({ type: "C", typeByte: 0x43, first: 7, last: 7 })
    for (const [field, text] of Object.entries(fields)) {
      const { first, last, type } = parseFieldRange(text)
      expect(`${type} ${first}-${last}`, field).toBe(found[field])
    }
    const stramatel = printedOptions(report("stramatel-452m", gameChunks(stramatelMoved, hockeyGame), noted).lines).fields as Record<string, string>
    expect(parseFieldRange(stramatel.home!)).toEqual({ type: "0x35", typeByte: 0x35, first: 29, last: 31 })
  })

  it("says the period and the score come from different packet types, and that this is fine", () => {
    const noted = [1, 2, 3].map((i) => noteAt(hockeyGame, i))
    const { lines } = report("fairplay-mp70", gameChunks(rink, hockeyGame.slice(0, 4)), noted)
    expect(lines.join("\n")).toMatch(/different packet types \(home, guest in H; period, clock in C\): that is fine/u)
  })
})

/** Stramatel 0x35 with the fields moved, individual points (0x37) and a names frame (0x77) on the same bus. */
const stramatelMoved: ConsoleLayout = (s) => [
  stramatelFrame(0x35, [[4, mmss(s.clock)], [30, right(s.home, 2)], [40, right(s.away, 2)], [45, String(s.period)]]),
  stramatelFrame(0x37, [[4, mmss(s.clock)], [22, `${right((s.other ?? 0) % 100, 2)}0307`]]),
  stramatelFrame(0x77, [[2, "HAWKS  EAGLES"]])
]

/** Stramatel basketball (0x33): three-digit scores at 8–10 / 11–13 side by side, period moved to 20. */
const stramatelBasketball: ConsoleLayout = (s) => [
  stramatelFrame(0x33, [[4, mmss(s.clock)], [8, right(s.home, 3)], [11, right(s.away, 3)], [20, String(s.period)], [48, "24"]])
]

const basketballGame: ReadonlyArray<Shown> = [
  { home: 45, away: 40, period: 2, clock: "3:12" },
  { home: 98, away: 99, period: 4, clock: "1:10" },
  { home: 101, away: 99, period: 4, clock: "0:58" },
  { home: 101, away: 100, period: 4, clock: "0:21" }
]

describe("learn's layout finder: Stramatel 452 M", () => {
  it("finds moved fields by sport code among other frames on the bus", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const findings = find("stramatel-452m", stramatelMoved, hockeyGame, noted)
    expect(ranges(findings)).toEqual({
      home: "0x35 30-31",
      away: "0x35 41-41",
      period: "0x35 45-45",
      clock: "0x35 4-7"
    })
    // The individual-points frames carry the clock too: a copy, named, not an ambiguity.
    expect(byField(findings).clock).toMatchObject({ alsoIn: [{ kind: "0x37", first: 4, last: 7 }] })
  })

  it("tells three-digit scores side by side apart", () => {
    const noted = [0, 2, 3].map((i) => noteAt(basketballGame, i))
    expect(ranges(find("stramatel-452m", stramatelBasketball, basketballGame, noted))).toEqual({
      home: "0x33 8-10",
      away: "0x33 11-13",
      period: "0x33 20-20",
      clock: "0x33 5-7"
    })
  })

  it("finds a clock shown in tenths under a minute (`SSt `) and reads it with its trailing blank", () => {
    const tenths: ConsoleLayout = (s) => [stramatelFrame(0x35, [[4, s.clock.replace(".", "").padStart(3, "0")], [9, right(s.home, 2)], [12, right(s.away, 2)], [14, String(s.period)]])]
    const game: ReadonlyArray<Shown> = [
      { home: 20, away: 18, period: 2, clock: "34.6" },
      { home: 21, away: 18, period: 2, clock: "12.1" },
      { home: 21, away: 19, period: 2, clock: "6.6" }
    ]
    const noted = [0, 1, 2].map((i) => noteAt(game, i))
    const chunks = gameChunks(tenths, game)
    expect(ranges(findLayout(framesOf("stramatel-452m", chunks).states, noted))).toMatchObject({ clock: "0x35 4-6" })
    const { exitCode, lines } = report("stramatel-452m", chunks, noted)
    expect(exitCode, lines.join("\n")).toBe(0)
    expect(printedOptions(lines)).toMatchObject({ fields: { clock: "0x35 4-7" } })
    expectDecodesAsNoted("stramatel-452m", "handball", printedOptions(lines), chunks, noted)
  })

  it("prints a fields block the Stramatel adapter reads the recording with as noted", () => {
    for (const [layout, game, sport, at] of [[stramatelMoved, hockeyGame, "handball", [1, 2, 4]], [stramatelBasketball, basketballGame, "basketball", [0, 2, 3]]] as const) {
      const chunks = gameChunks(layout, game)
      const noted = at.map((i) => noteAt(game, i))
      const { exitCode, lines } = report("stramatel-452m", chunks, noted)
      expect(exitCode, lines.join("\n")).toBe(0)
      expectDecodesAsNoted("stramatel-452m", sport, printedOptions(lines), chunks, noted)
    }
  })
})

/** A DIY controller's fixed-column line: `H  3  G  5  P 2  T 12:34`. */
const linesPlain: ConsoleLayout = (s) => [textLine(26, [[0, "H"], [2, right(s.home, 3)], [7, "G"], [9, right(s.away, 3)], [14, "P"], [16, String(s.period)], [19, "T"], [21, right(s.clock, 5)]])]

/** The same fields in another order, the clock first, period two columns wide, a running counter at the end. */
const linesMoved: ConsoleLayout = (s) => [
  textLine(40, [[0, right(s.clock, 5)], [8, right(s.period, 2)], [14, right(s.away, 3)], [22, right(s.home, 3)], [30, `#${right(s.other ?? 0, 4)}`]])
]

describe("learn's layout finder: lines", () => {
  it.each([
    { name: "plain", layout: linesPlain, expected: { home: "line 3-4", away: "line 11-11", period: "line 16-16", clock: "line 21-25" } },
    { name: "moved", layout: linesMoved, expected: { home: "line 23-24", away: "line 16-16", period: "line 9-9", clock: "line 0-4" } }
  ])("finds the columns: $name", ({ layout, expected }) => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    expect(ranges(find("lines", layout, hockeyGame, noted))).toEqual(expected)
  })

  it("prints a pattern the lines adapter reads each line with as noted", () => {
    for (const layout of [linesPlain, linesMoved]) {
      const chunks = gameChunks(layout, hockeyGame)
      const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
      const { exitCode, lines } = report("lines", chunks, noted)
      expect(exitCode, lines.join("\n")).toBe(0)
      const options = printedOptions(lines)
      expect(options.pattern).toMatch(/^\^/u)
      expectDecodesAsNoted("lines", "hockey", options, chunks, noted)
    }
  })
})

/** Daktronics RTD: `at` says where home and guest are written in the buffer; team names and a shot clock as noise. */
const rtd = (home: number, away: number, width: number): ConsoleLayout => (s) =>
  rtdWrites([
    [0, s.clock.padEnd(5)],
    [47, "HAWKS".padEnd(20)],
    [home, right(s.home, width)],
    [away, right(s.away, width)],
    [141, right(s.period, 2)],
    [200, right(s.other ?? 24, 8)]
  ])

describe("learn's layout finder: Daktronics RTD (the state buffer)", () => {
  it("finds the offsets and names the adapter layout they are", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const chunks = gameChunks(rtd(107, 111, 4), hockeyGame)
    expect(ranges(findLayout(framesOf("daktronics-rtd", chunks).states, noted))).toEqual({
      home: "buffer 109-110",
      away: "buffer 114-114",
      period: "buffer 142-142",
      clock: "buffer 0-4"
    })
    const { exitCode, lines } = report("daktronics-rtd", chunks, noted)
    expect(exitCode, lines.join("\n")).toBe(0)
    expect(lines.join("\n")).toMatch(/adapter's fields for every sport .*set the place's sport/u)
    expectDecodesAsNoted("daktronics-rtd", "hockey", printedOptions(lines), chunks, noted)
  })

  it("recognises volleyball's current-game fields and prints the option that reads them", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const chunks = gameChunks(rtd(239, 259, 2), hockeyGame)
    const { exitCode, lines } = report("daktronics-rtd", chunks, noted)
    expect(exitCode, lines.join("\n")).toBe(0)
    expect(printedOptions(lines)).toEqual({ volleyballPoints: "game" })
    expectDecodesAsNoted("daktronics-rtd", "volleyball", { volleyballPoints: "game" }, chunks, noted)
  })

  it("says when the offsets match none of the adapter's layouts", () => {
    const noted = [1, 2, 4].map((i) => noteAt(hockeyGame, i))
    const chunks = gameChunks(rtd(300, 310, 3), hockeyGame)
    expect(ranges(findLayout(framesOf("daktronics-rtd", chunks).states, noted))).toMatchObject({ home: "buffer 301-302", away: "buffer 312-312" })
    const { exitCode, lines } = report("daktronics-rtd", chunks, noted)
    expect(exitCode).toBe(1)
    const text = lines.join("\n")
    expect(text).toMatch(/home at offsets 301-302: the adapter reads it at 107-110 or 239-240\./u)
    expect(text).toMatch(/None of the adapter's layouts reads this console: send the capture to support\.\nThe recording for support: capture\.ndjson/u)
    expect(text).not.toMatch(/Options block to paste/u)
  })
})

describe("learn's layout finder: what the moments cannot tell apart", () => {
  const candidates = (f: Finding | undefined): ReadonlyArray<Candidate> => (f?._tag === "ambiguous" ? f.candidates : [])

  it("says ambiguous when home and guest were equal at every moment, and that a moment where they differ settles it", () => {
    const game: ReadonlyArray<Shown> = [
      { home: 1, away: 1, period: 1, clock: "14:00" },
      { home: 2, away: 2, period: 1, clock: "8:30" },
      { home: 2, away: 3, period: 1, clock: "5:30" }
    ]
    const noted = [0, 1].map((i) => noteAt(game, i))
    const findings = byField(find("fairplay-mp70", rink, game, noted))
    expect(findings.home?._tag).toBe("ambiguous")
    expect(candidates(findings.home).map((c) => `${c.kind} ${c.first}`).sort()).toEqual(["H 13", "H 39"])
    expect(candidates(findings.away).map((c) => `${c.kind} ${c.first}`).sort()).toEqual(["H 13", "H 39"])
    const { exitCode, lines } = report("fairplay-mp70", gameChunks(rink, game), noted)
    expect(exitCode).toBe(1)
    const text = lines.join("\n")
    expect(text).toMatch(/^home: ambiguous: home could be H 13 or H 39: note a moment where home and guest differ \(at 10 s H 13 showed 2, H 39 showed 3: .*\)\.$/mu)
    expect(text).toMatch(/No options block yet/u)
    expect(text).not.toMatch(/Options block to paste/u)
  })

  it("says ambiguous when the period always equals a score digit, naming the two fields", () => {
    const game: ReadonlyArray<Shown> = [
      { home: 1, away: 0, period: 1, clock: "14:00" },
      { home: 2, away: 4, period: 2, clock: "8:30" },
      { home: 3, away: 4, period: 3, clock: "5:30" },
      { home: 3, away: 5, period: 1, clock: "4:59" }
    ]
    const noted = [0, 1, 2].map((i) => noteAt(game, i))
    const findings = byField(find("fairplay-mp70", rink, game, noted))
    expect(findings.away).toMatchObject({ _tag: "found", range: { kind: "H", first: 39, last: 39 } })
    expect(candidates(findings.period).map((c) => `${c.kind} ${c.first}`).sort()).toEqual(["C 7", "H 13"])
    const text = report("fairplay-mp70", gameChunks(rink, game), noted).lines.join("\n")
    expect(text).toMatch(/^period: ambiguous: period could be (C 7 or H 13|H 13 or C 7): note a moment where period and home differ/mu)
    expect(text).toMatch(/^home: ambiguous: .*note a moment where home and period differ/mu)
  })

  it("says ambiguous when only one-digit scores were noted but the board later showed two, and asks for a moment with 10 or more", () => {
    const noted = [1, 2, 3].map((i) => noteAt(hockeyGame, i))
    const findings = byField(find("fairplay-mp70", rink, hockeyGame, noted))
    expect(candidates(findings.home).map((c) => `${c.kind} ${c.first}-${c.last}`).sort()).toEqual(["H 12-13", "H 13-13"])
    const text = report("fairplay-mp70", gameChunks(rink, hockeyGame), noted).lines.join("\n")
    expect(text).toMatch(/^home: ambiguous: home could be H 12-13 or H 13: they differ in how many digits they hold: note a moment with home at 10 or more \(at 20 s H 12-13 showed 12, H 13 showed 2: /mu)
  })

  it("says when a field changed within the second before a moment: that reading is uncertain", () => {
    const noted = [1, 2, 3].map((i) => noteAt(hockeyGame, i))
    const late = { ...noted[2]!, at: t0 + 3 * 5_000 + 400, when: "15.4 s" }
    const findings = byField(find("fairplay-mp70", rink, hockeyGame.slice(0, 4), [noted[0]!, noted[1]!, late]))
    expect(findings.home).toMatchObject({ _tag: "found", uncertain: [late] })
    expect(findings.away).toMatchObject({ _tag: "found", uncertain: [] })
    const text = report("fairplay-mp70", gameChunks(rink, hockeyGame.slice(0, 4)), [noted[0]!, noted[1]!, late]).lines.join("\n")
    expect(text).toMatch(/^ {2}It changed within the second before 15\.4 s: /mu)
  })

  it("never lets two fields share bytes: when one range alone reads both, it says so instead of choosing", () => {
    // No penalties: nothing else on the board shows a 1.
    const game = hockeyGame.slice(0, 4).map(({ other: _, ...shown }) => shown)
    const noted = [noteAt(game, 1, ["home", "period"]), { ...noteAt(game, 2, ["home"]), noted: { home: "1", period: "1" } }]
    const findings = byField(find("fairplay-mp70", rink, game, noted))
    expect(findings.home).toMatchObject({ _tag: "ambiguous", candidates: [{ kind: "H", first: 13, last: 13 }] })
    expect(findings.period).toMatchObject({ _tag: "ambiguous", candidates: [{ kind: "H", first: 13, last: 13 }] })
    const text = report("fairplay-mp70", gameChunks(rink, game), noted).lines.join("\n")
    expect(text).toMatch(/^period: not settled: period and home only ever read as noted at H 13, and two fields never share bytes: check what you typed/mu)
  })

  it("names the one moment that disagrees with the others: probably mistyped", () => {
    const noted = [1, 2, 3].map((i) => noteAt(hockeyGame, i))
    const typo = { ...noted[1]!, noted: { ...noted[1]!.noted, away: "3" } }
    const { exitCode, lines } = report("fairplay-mp70", gameChunks(rink, hockeyGame.slice(0, 4)), [noted[0]!, typo, noted[2]!])
    expect(exitCode).toBe(1)
    expect(lines.join("\n")).toMatch(/^guest: not found: every other moment reads it at H 39, but not 14 s \(guest 3\): check what you typed then\.$/mu)
  })

  it("says when no byte range read a value at a moment", () => {
    const noted = [noteAt(hockeyGame, 1), { ...noteAt(hockeyGame, 2), noted: { home: "7" } }]
    const { lines } = report("fairplay-mp70", gameChunks(rink, hockeyGame.slice(0, 4)), noted)
    expect(lines.join("\n")).toMatch(/^home: not found: no byte range read 7 at 14 s; check what you typed and the protocol\.$/mu)
  })

  it("marks a field noted with one value only as weakly determined", () => {
    const game: ReadonlyArray<Shown> = [
      { home: 1, away: 0, period: 2, clock: "14:00" },
      { home: 3, away: 4, period: 2, clock: "8:30" }
    ]
    const noted = [0, 1].map((i) => noteAt(game, i))
    const findings = byField(find("fairplay-mp70", rink, game, noted))
    expect(findings.period).toMatchObject({ _tag: "found", weak: true })
    expect(findings.home).toMatchObject({ _tag: "found", weak: false })
    expect(report("fairplay-mp70", gameChunks(rink, game), noted).lines.join("\n")).toMatch(/Only ever noted as 2: .*Note a moment after period changes/u)
  })

  it("needs no moment exactly on a frame: each uses the frames current shortly before it", () => {
    const chunks = gameChunks(rink, hockeyGame.slice(0, 4))
    const noted = [1, 2, 3].map((i) => ({ ...noteAt(hockeyGame, i), at: t0 + i * 5_000 + 4_900 }))
    expect(report("fairplay-mp70", chunks, noted).exitCode).toBe(0)
  })
})
