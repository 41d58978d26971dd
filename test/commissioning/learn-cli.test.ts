import type { Writable } from "node:stream"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { parse as parseYaml } from "yaml"
import { digitPacket, digitsOf, formatPacket } from "../../adapters/colorado-cts/encode.ts"
import { protocols } from "../../adapters/registry.ts"
import type { Reading } from "../../src/domain/reading.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { captureLine, parseCapture } from "../../src/replay/capture-format.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { runScorebridge, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { type ConsoleLayout, fairplayPacket, gameChunks, hockeyGame, mmss, right, rtdWrites, type Shown, stramatelFrame, textLine } from "./learn-support.ts"
import { sleep } from "../support/sleep.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("learn")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const learn = (args: ReadonlyArray<string>) => runScorebridge("learn", args)

/** The consoles with a learn description, in the registry's order, as learn names them. */
const learnable = Object.values(protocols).filter((p) => p.learn !== undefined).map((p) => p.name).join(", ")

let files = 0
const captureOf = (chunks: ReadonlyArray<ReceivedChunk>): string => {
  const path = join(scratch, `capture-${++files}.ndjson`)
  writeFileSync(path, chunks.map(captureLine).join(""))
  return path
}

/** The `options:` of the printed block, as YAML in a place's config. */
const printedOptions = (stdout: string): Record<string, unknown> => {
  const lines = stdout.split("\n")
  const start = lines.indexOf("Options block to paste (under the place's scoreboard:):")
  expect(start, stdout).toBeGreaterThanOrEqual(0)
  const block = lines.slice(start + 1).filter((l) => l.startsWith("      "))
  return (parseYaml(block.join("\n")) as { options?: Record<string, unknown> }).options ?? {}
}

/** Each frame decoded alone with the printed options: the readings of the console's moments, field by field. */
const decodedFields = (protocol: string, sport: string, options: Record<string, unknown>, frames: ReadonlyArray<Uint8Array>) => {
  const decoder = protocols[protocol]!.makeDecoder({ ...options, sport })
  const merged: { -readonly [K in keyof Reading]?: Reading[K] } = {}
  for (const frame of frames) Object.assign(merged, ...decoder.push(frame, 0))
  expect(decoder.stats.badFrames).toBe(0)
  const { home, away, period, clock } = merged
  return { home, away, period, clock }
}

const asShown = ({ home, away, period, clock }: Shown) => ({ home, away, period, clock })

const penalty = (s: Shown): ReadonlyArray<readonly [number, string]> => (s.other === undefined ? [] : [[16, "12"], [19, right(s.other, 3)]])

/** Fair-Play variant A (the rink console): clock C 2–5, period C 7, home H 13, guest H 39, penalties beside them. */
const rink: ConsoleLayout = (s) => [
  fairplayPacket("C", 11, [[2, mmss(s.clock)], [7, String(s.period)], [8, "60"]]),
  fairplayPacket("H", 55, [[12, right(s.home, 2)], [38, right(s.away, 2)], ...penalty(s)])
]

/** A DIY controller's fixed-column line with the fields in an unusual order. */
const diyLine: ConsoleLayout = (s) => [textLine(34, [[0, "T"], [2, right(s.clock, 5)], [9, "G"], [11, right(s.away, 3)], [16, "H"], [18, right(s.home, 3)], [23, "P"], [25, String(s.period)]])]

/** Stramatel 0x35 frames with the score moved, and individual-points frames (0x37) on the same bus. */
const stramatelMoved: ConsoleLayout = (s) => [
  stramatelFrame(0x35, [[4, mmss(s.clock)], [30, right(s.home, 2)], [40, right(s.away, 2)], [45, String(s.period)]]),
  stramatelFrame(0x37, [[4, mmss(s.clock)], [22, `${right((s.other ?? 0) % 100, 2)}0307`]])
]

/** Daktronics RTD: the documented offsets, with team names and a shot clock around them. */
const rtd: ConsoleLayout = (s) =>
  rtdWrites([[0, s.clock.padEnd(5)], [47, "HAWKS".padEnd(20)], [107, right(s.home, 4)], [111, right(s.away, 4)], [141, right(s.period, 2)], [200, right(s.other ?? 24, 8)]])

/** A Colorado console at water polo: the game clock on channel 1, the score on 13, the period on 14; a penalty clock on 20 and the swim clock at rest on 0 (noise). */
const coloradoWaterPolo: ConsoleLayout = (s) =>
  [
    digitPacket(0, digitsOf("     0 0")),
    digitPacket(1, digitsOf(`    ${mmss(s.clock)}`)),
    formatPacket(1, [0, 0, 0, 0, 0, 2, 0, 0]),
    digitPacket(13, digitsOf(`${right(s.home, 2)}    ${right(s.away, 2)}`)),
    digitPacket(14, digitsOf(` ${s.period}`)),
    digitPacket(20, digitsOf(right(s.other ?? 0, 3)))
  ].map((packet) => new Uint8Array(packet))

const at = (i: number, s: Shown) => `--at=${i * 5 + 4}: home ${s.home} guest ${s.away} period ${s.period} clock ${s.clock}`

describe("scorebridge learn --capture (offline, a real process)", () => {
  it("finds Fair-Play variant A's fields in a capture and prints a block the adapter reads them with", async () => {
    const path = captureOf(gameChunks(rink, hockeyGame))
    const run = await learn(["--protocol", "fairplay-mp70", "--capture", path, ...[1, 2, 4].map((i) => at(i, hockeyGame[i]!))])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^ {2}9 s: home 1, guest 0, period 1, clock 12:34$/mu)
    expect(run.stdout).toMatch(/^home: H 12-13 \(read 1, 12 as noted; the options read H 11-13, /mu)
    expect(run.stdout).toContain('        fields: { home: "H 11-13", away: "H 38-40", period: "C 7", clock: "C 2-5" }')
    expect(run.stdout).toMatch(/^Checked: the adapter, with this block \(sport hockey\), reads every moment as noted\.$/mu)
    const options = printedOptions(run.stdout)
    for (const shown of hockeyGame) expect(decodedFields("fairplay-mp70", "hockey", options, rink(shown))).toEqual(asShown(shown))
  })

  it("finds a text line's columns and prints a pattern the lines adapter reads them with", async () => {
    const path = captureOf(gameChunks(diyLine, hockeyGame))
    const run = await learn(["--protocol", "lines", "--capture", path, ...[1, 3, 4].map((i) => at(i, hockeyGame[i]!))])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const options = printedOptions(run.stdout)
    expect(options).toEqual({ pattern: String.raw`^.{2}(?<clock>[ \d:.]{5}).{5}(?<away>[ \d]{3}).{3}(?<home>[ \d]{3}).{4}(?<period>[ \d]{1})` })
    for (const shown of hockeyGame) expect(decodedFields("lines", "hockey", options, diyLine(shown))).toEqual(asShown(shown))
  })

  it("finds a Stramatel console's moved score in a capture, with another frame type on the bus", async () => {
    const path = captureOf(gameChunks(stramatelMoved, hockeyGame))
    const run = await learn(["--protocol", "stramatel-452m", "--capture", path, ...[1, 2, 4].map((i) => at(i, hockeyGame[i]!))])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const options = printedOptions(run.stdout)
    for (const shown of hockeyGame) expect(decodedFields("stramatel-452m", "handball", options, stramatelMoved(shown))).toEqual(asShown(shown))
  })

  it("finds a Colorado console's water polo score, period and clock by channel and digits in a capture", async () => {
    const path = captureOf(gameChunks(coloradoWaterPolo, hockeyGame))
    const run = await learn(["--protocol", "colorado-cts", "--capture", path, ...[1, 2, 4].map((i) => at(i, hockeyGame[i]!))])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const options = printedOptions(run.stdout)
    expect(options).toMatchObject({ home: { channel: 13 }, away: { channel: 13 }, period: { channel: 14 }, gameClock: { channel: 1 } })
    expect(run.stdout).toMatch(/^Checked: the adapter, with this block \(sport waterpolo\), reads every moment as noted\.$/mu)
    // The console repeats a module before the adapter believes it: each moment's packets twice.
    for (const shown of hockeyGame) {
      expect(decodedFields("colorado-cts", "waterpolo", options, [...coloradoWaterPolo(shown), ...coloradoWaterPolo(shown)])).toEqual(asShown(shown))
    }
  })

  it("exits 1 and says what would settle it when the moments cannot tell home from guest", async () => {
    const game: ReadonlyArray<Shown> = [
      { home: 1, away: 1, period: 1, clock: "14:00" },
      { home: 2, away: 2, period: 1, clock: "8:30" },
      { home: 2, away: 3, period: 1, clock: "5:30" }
    ]
    const path = captureOf(gameChunks(rink, game))
    const run = await learn(["--protocol", "fairplay-mp70", "--capture", path, at(0, game[0]!), at(1, game[1]!)])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^home: ambiguous: home could be H 13 or H 39: note a moment where home and guest differ \(at 10 s /mu)
    expect(run.stdout).not.toMatch(/Options block to paste/u)
  })

  it.each([
    { args: ["--protocol", "json", "--capture", "x.ndjson", "--at", "1: home 1"], message: new RegExp(`json has no fixed byte positions to learn: learn reads ${learnable}$`, "mu") },
    { args: ["--protocol", "nope", "--capture", "x.ndjson", "--at", "1: home 1"], message: /unknown protocol "nope"/u },
    { args: ["--protocol", "lines", "--capture", "CAPTURE"], message: /with --capture, give each moment as --at "SECONDS: what the board showed"/u },
    { args: ["--protocol", "lines", "--capture", "CAPTURE", "--at", "home 3"], message: /--at "home 3": write the seconds from the capture's start, a colon/u },
    { args: ["--protocol", "lines", "--capture", "CAPTURE", "--at", "3: home three"], message: /home "three" is not a score/u },
    { args: ["--protocol", "lines", "--capture", "CAPTURE", "--at", "3: score 3"], message: /"score" is not a field/u },
    { args: ["--protocol", "lines", "--capture", "/nowhere/x.ndjson", "--at", "1: home 1"], message: /cannot read capture \/nowhere\/x\.ndjson: no such file/u },
    { args: ["--protocol", "lines", "--port", "/dev/null", "--at", "1: home 1"], message: /--at goes with --capture/u },
    { args: ["--capture", "CAPTURE", "--at", "1: home 1"], message: new RegExp(`which protocol\\? give --protocol, one of ${learnable} \\(scorebridge sniff names it\\)`, "u") },
    { args: ["--protocol", "lines"], message: /give exactly one of --port PATH .*, or --capture FILE\.ndjson/u },
    { args: ["--protocol", "lines", "--capture", "CAPTURE", "--port", "/dev/ttyUSB0", "--at", "1: home 1"], message: /--capture learns from a file: drop --port/u }
  ])("exits 2 on bad flags: $message", async ({ args, message }) => {
    const path = captureOf(gameChunks(diyLine, hockeyGame))
    const run = await learn(args.map((a) => (a === "CAPTURE" ? path : a)))
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stderr).toMatch(message)
  })
})

/** `learn` on a live console: stdin is the technician's keyboard. */
interface Live {
  readonly stdin: Writable
  readonly kill: () => void
  /** Ctrl-C at the technician's terminal. */
  readonly interrupt: () => void
  /** Both streams, as the technician's terminal shows them. */
  readonly stdout: () => string
  readonly exited: Promise<number | null>
}

let live: Live | undefined
let pty: PtyPair | undefined
afterEach(async () => {
  live?.kill()
  await live?.exited
  live = undefined
  await pty?.stop()
  pty = undefined
})

const startLive = (args: ReadonlyArray<string>): Live => {
  const learn = startScorebridge(["learn", ...args], { stdin: "pipe" })
  return { stdin: learn.process.stdin!, kill: learn.kill, interrupt: () => learn.process.kill("SIGINT"), stdout: () => learn.stdout() + learn.stderr(), exited: learn.exited.then((exit) => exit.code) }
}

/**
 * Plays the game on the pty while a technician types each moment: the console sends a moment's
 * frames, the board holds, the technician reads it and presses Enter a little later.
 */
const playAndNote = async (layout: ConsoleLayout, game: ReadonlyArray<Shown>, noted: ReadonlyArray<number>) => {
  const writer = openWriter(pty!.writerPath)
  try {
    for (const [i, shown] of game.entries()) {
      for (let repeat = 0; repeat < 3; repeat++) {
        for (const frame of layout(shown)) writer.write(frame)
        await sleep(150)
      }
      // The board holds: the moment is read a second later.
      await sleep(900)
      if (!noted.includes(i)) continue
      const echoes = live!.stdout().split("noted at").length
      live!.stdin.write(`home ${shown.home} guest ${shown.away} period ${shown.period} clock ${shown.clock}\n`)
      await eventually(`moment ${i} to be noted`, () => (live!.stdout().split("noted at").length > echoes ? true : undefined))
    }
  } finally {
    writer.close()
  }
}

describe("scorebridge learn on a live console (a real process on a socat pty, moments typed on stdin)", () => {
  it.each([
    // Two consoles live, one of whole frames and one of partial updates: what the live path adds
    // (the pty, stdin, the recording) is the same for every protocol; each protocol's finding is
    // tested from captures above and in learn-finder.test.ts.
    { protocol: "fairplay-mp70", layout: rink, sport: "hockey" },
    { protocol: "daktronics-rtd", layout: rtd, sport: "hockey" }
  ])("records $protocol while the technician notes three moments, then prints a block that reads them", async ({ layout, protocol, sport }) => {
    pty = await startPtyPair(scratch)
    const out = join(scratch, `live-${++files}.ndjson`)
    live = startLive(["--protocol", protocol, "--port", pty.daemonPath, "--out", out])
    await eventually("learn to record", () => (live!.stdout().includes("An empty line or Ctrl-D ends") ? true : undefined), { timeoutMs: 15_000 })
    await playAndNote(layout, hockeyGame, [1, 2, 4])
    live.stdin.write("\n")
    const code = await live.exited
    const stdout = live.stdout()
    expect(code, stdout).toBe(0)
    expect(stdout).toMatch(/^Moments noted: 3$/mu)
    expect(stdout).toMatch(/^Checked: the adapter, with this block( \(sport \w+\))?, reads every moment as noted\.$/mu)
    const options = printedOptions(stdout)
    for (const shown of hockeyGame) expect(decodedFields(protocol, sport, options, layout(shown))).toEqual(asShown(shown))
    // The recording is kept for support and for learning again offline.
    expect(stdout).toContain(`The recording is in ${out}`)
    const kept = parseCapture(readFileSync(out, "utf8"))
    expect(Result.isSuccess(kept) && kept.success.length > 0).toBe(true)
  })

  it("keeps what it recorded in --out when the technician presses Ctrl-C", async () => {
    pty = await startPtyPair(scratch)
    const out = join(scratch, `interrupted-${++files}.ndjson`)
    live = startLive(["--protocol", "lines", "--port", pty.daemonPath, "--out", out])
    await eventually("learn to record", () => (live!.stdout().includes("An empty line or Ctrl-D ends") ? true : undefined), { timeoutMs: 15_000 })
    const writer = openWriter(pty.writerPath)
    try {
      // A line from the console, then a moment noted: its echo says how many bytes the recording holds.
      await eventually("bytes to be recorded", () => {
        writer.write(new TextEncoder().encode("12 34\n"))
        live!.stdin.write("home 12 guest 34\n")
        return /\([1-9]\d* bytes recorded so far\)/u.test(live!.stdout()) ? true : undefined
      }, { intervalMs: 200 })
    } finally {
      writer.close()
    }
    live.interrupt()
    await live.exited
    expect(live.stdout()).toContain(`The recording is in ${out}`)
    const kept = parseCapture(readFileSync(out, "utf8"))
    expect(Result.isSuccess(kept) && kept.success.some((chunk) => new TextDecoder().decode(chunk.bytes).includes("12 34")), live.stdout()).toBe(true)
  })

  it("says so and exits 1 when the technician ends without noting anything", async () => {
    pty = await startPtyPair(scratch)
    live = startLive(["--protocol", "lines", "--port", pty.daemonPath])
    await eventually("learn to record", () => (live!.stdout().includes("An empty line or Ctrl-D ends") ? true : undefined), { timeoutMs: 15_000 })
    live.stdin.write("home three\n")
    await eventually("the mistake to be pointed out", () => (live!.stdout().includes('not noted: home "three" is not a score') ? true : undefined))
    live.stdin.end()
    expect(await live.exited).toBe(1)
    expect(live.stdout()).toMatch(/Nothing noted: run again and type what the board shows/u)
  })

  it("exits 2 explaining a port that does not exist", async () => {
    const run = await learn(["--protocol", "lines", "--port", join(scratch, "ttyGone")])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/\[FAIL\] serial port .*ttyGone: no such device/u)
    expect(existsSync(join(scratch, "ttyGone"))).toBe(false)
  })
})
