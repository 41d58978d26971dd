import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { message11 } from "../../adapters/bodet-scorepad/encode.ts"
import { gameStream as fairplayGame } from "../../adapters/fairplay-mp70/test-support.ts"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { raceStream } from "../../adapters/colorado-cts/console-model.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { type PtyPair, startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { playInLoop, runCli, startCli } from "./support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("sniff")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const daktronicsCapture = new Uint8Array(readFileSync("adapters/daktronics-rtd/fixtures/football-j5-capture.bin"))

let pty: PtyPair
let player: { readonly stop: () => void } | undefined
beforeEach(async () => {
  pty = await startPtyPair(scratch)
})
afterEach(async () => {
  player?.stop()
  player = undefined
  await pty.stop()
})

const sniff = (...args: ReadonlyArray<string>) => runCli("sniff", ["--port", pty.daemonPath, "--seconds", "1", ...args])

const listening = (stdout: string) => stdout.split("\n").filter((line) => line.startsWith("Listening on"))

/** The JSON shown after `label` on its line, as the fields of a reading. */
const shownReading = (stdout: string, label: string): unknown => {
  const line = stdout.split("\n").find((l) => l.trimStart().startsWith(label))
  expect(line, `a line starting with ${label}`).toBeDefined()
  return JSON.parse(line!.slice(line!.indexOf("{")))
}

const fieldsOf = ({ receivedAt: _, ...fields }: Reading) => fields

describe("scorebridge sniff (process)", () => {
  it("recognises the real Daktronics capture at the first speed and prints the config to paste", async () => {
    // Played once, from its first byte, as soon as sniff listens: the shown readings are then exactly the capture's.
    const started = startCli("sniff", ["--port", pty.daemonPath, "--seconds", "1"])
    await eventually("sniff to listen", () => (started.stdout().includes("Listening on") ? true : undefined))
    writeToPty(pty.writerPath, daktronicsCapture)
    const exit = await started.exited
    const run = { code: exit.code, stdout: started.stdout() }
    expect(run.code).toBe(0)
    expect(listening(run.stdout)).toHaveLength(1)
    expect(run.stdout).toMatch(/Recognised daktronics-rtd at 19200 baud 8N1: 246 frames decoded, 0 bad\./u)
    // Each sport's sample is the last reading its layout makes from the capture.
    for (const sport of ["basketball", "volleyball", "tennis", "football"]) {
      const decoder = protocols["daktronics-rtd"]!.makeDecoder({ sport })
      expect(shownReading(run.stdout, `${sport}:`), sport).toEqual(fieldsOf(decoder.push(daktronicsCapture, 0).at(-1)!))
    }
    expect(run.stdout).toContain([
      "    scoreboard:",
      "      protocol: daktronics-rtd",
      "      serial:",
      `        path: ${pty.daemonPath}`,
      "        baudRate: 19200"
    ].join("\n"))
  })

  it("recognises Stramatel frames and the sport they announce", async () => {
    const frames = Array.from({ length: 40 }, (_, i) => frame(0x36, { home: 10 + i, away: 8, period: 2, sets: [[25, 20], [10 + i, 8]], setsWon: [1, 0], serve: "home" }))
    player = playInLoop(pty.writerPath, new Uint8Array(Buffer.concat(frames)), 54, 10)
    const run = await sniff("--bauds", "9600,19200")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Recognised stramatel-452m at 9600 baud 8N1: \d+ frames decoded, 0 bad\./u)
    expect(run.stdout).toMatch(/^ {2}sport: volleyball$/mu)
    expect(shownReading(run.stdout, "sample reading:")).toMatchObject({ away: 8, period: 2, setsWon: [1, 0], serve: "home" })
    expect(run.stdout).toMatch(/^ {4}sport: volleyball\n {4}scoreboard:\n {6}protocol: stramatel-452m/mu)
    expect(listening(run.stdout)).toHaveLength(1)
  })

  it("names the sport from the Stramatel code: basketball (0x33), the 0x35 family, volleyball; bus chatter between frames", async () => {
    // Individual points (0x38) and a names frame (0x77) share the bus with the main frame, as on a real console.
    const chatter = [frame(0x33, { home: 1, away: 1 }), frame(0x33, { home: 2, away: 2 })].map((f, i) => {
      f[1] = i === 0 ? 0x38 : 0x77
      return f
    })
    const consoles = [
      {
        main: (i: number) => frame(0x33, { home: 60 + i, away: 58, period: 3, clock: "4:12", teamFouls: [4, 2], timeouts: [1, 1], shotClock: "6D" }),
        said: "  sport: basketball (code 0x33: basketball or netball)",
        snippet: "    sport: basketball\n    scoreboard:\n      protocol: stramatel-452m",
        sample: { away: 58, period: 3, teamFouls: [4, 2] }
      },
      {
        main: (i: number) => frame(0x35, { home: 3, away: 2, period: 2, clock: `${10 + (i % 10)}:00`, penalties: { home: ["2:00"], away: [] } }),
        said: "  sport: code 0x35: handball, football/futsal, hockey or floorball; the frames do not say which: "
          + "set sport: to the one played here (handball, soccer, futsal, hockey or unihockey)",
        snippet: "    # sport: handball | soccer | futsal | hockey | unihockey   (the one played here; or leave it out to use the service's, needs service.companyKey)\n"
          + "    scoreboard:\n      protocol: stramatel-452m",
        sample: { home: 3, away: 2, period: 2, penalties: { home: [{ remaining: "2:00" }], away: [] } }
      },
      {
        main: (i: number) => frame(0x36, { home: 10 + i, away: 8, period: 2, sets: [[25, 20], [10 + i, 8]], setsWon: [1, 0] }),
        said: "  sport: volleyball",
        snippet: "    sport: volleyball\n    scoreboard:\n      protocol: stramatel-452m",
        sample: { away: 8, period: 2, setsWon: [1, 0] }
      }
    ]
    for (const console of consoles) {
      const frames = Array.from({ length: 30 }, (_, i) => [console.main(i), ...(i % 3 === 0 ? chatter : [])]).flat()
      player = playInLoop(pty.writerPath, new Uint8Array(Buffer.concat(frames)), 54, 10)
      const run = await sniff("--bauds", "19200")
      player.stop()
      player = undefined
      expect(run.code, run.stdout).toBe(0)
      expect(run.stdout).toMatch(/Recognised stramatel-452m at 19200 baud 8N1: \d+ frames decoded, 0 bad\./u)
      expect(run.stdout.split("\n")).toContain(console.said)
      expect(shownReading(run.stdout, "sample reading:")).toMatchObject(console.sample)
      expect(run.stdout).toContain(`\n${console.snippet}\n`)
    }
  })

  it("recognises a Bodet Scorepad on a serial line", async () => {
    const bodet = Array.from({ length: 30 }, (_, i) => message11({ clock: `8:${String(30 + i % 30).padStart(2, "0")}`, home: 5, away: 4, period: 3 }))
    player = playInLoop(pty.writerPath, new Uint8Array(Buffer.concat(bodet)), 21, 10)
    const heardBodet = await sniff("--bauds", "9600")
    expect(heardBodet.code).toBe(0)
    expect(heardBodet.stdout).toMatch(/Recognised bodet-scorepad at 9600 baud 8N1: \d+ frames decoded, 0 bad\./u)
    expect(heardBodet.stdout).toMatch(/^ {6}protocol: bodet-scorepad\n {6}serial:/mu)
  })

  it.each([
    ["rink", {}, /^ {2}variant: rink — 11-byte C packets with the clock and the period at byte 7, 55-byte H packets/mu],
    ["proline", { variant: "proline" }, /^ {2}variant: proline — 80-byte C and H packets, the period in the H packet/mu]
  ] as const)("recognises a Fair-Play MP-70 of variant %s and prints its options only when not the default", async (variant, options, said) => {
    // A stretch of a game as the console sends it (the rink console: 2–3 C packets per H packet).
    player = playInLoop(pty.writerPath, fairplayGame(7, 60, options).bytes, 80, 10)
    const heard = await sniff("--bauds", "9600")
    expect(heard.code).toBe(0)
    expect(heard.stdout).toMatch(/Recognised fairplay-mp70 at 9600 baud 8N1: \d+ frames decoded, 0 bad\./u)
    expect(heard.stdout).toMatch(said)
    // The stream does not name its sport: every sport the layout fits is listed, hockey among them.
    expect(heard.stdout).toMatch(/^ {4}hockey: \{/mu)
    const snippet = ["    scoreboard:", "      protocol: fairplay-mp70", "      serial:", `        path: ${pty.daemonPath}`, "        baudRate: 9600"]
    if (variant === "proline") snippet.push("      options:", "        variant: proline")
    expect(heard.stdout.trimEnd().endsWith(snippet.join("\n")), heard.stdout).toBe(true)
  })

  it("says text lines and JSON lines need a field map, with a sample line", async () => {
    player = playInLoop(pty.writerPath, new TextEncoder().encode("12,9,2\r\n13,9,2\r\n"), 8, 20)
    const lines = await sniff()
    expect(lines.code).toBe(0)
    expect(lines.stdout).toMatch(/Looks like text lines at 19200 baud 8N1 \(\d+ lines\), e\.g\.:\n {2}1[23],9,2\n/u)
    expect(lines.stdout).toMatch(/protocol: lines/u)
    player.stop()
    player = playInLoop(pty.writerPath, new TextEncoder().encode('{"home":3,"away":1}\n'), 10, 20)
    const json = await sniff()
    expect(json.stdout).toMatch(/Looks like JSON lines at 19200 baud 8N1 .*\n {2}\{"home":3,"away":1\}\n/u)
    expect(json.stdout).toMatch(/protocol: json/u)
  })

  it("tries every speed given at 8N1, then at Colorado's 8E1 with its own 2400 too, then says what to check, when nothing arrives", async () => {
    const run = await sniff("--bauds", "19200,9600")
    expect(run.code).toBe(1)
    expect(listening(run.stdout).map((line) => line.match(/at (\d+ baud \w+) for/u)?.[1])).toEqual([
      "19200 baud 8N1",
      "9600 baud 8N1",
      "19200 baud 8E1",
      "9600 baud 8E1",
      "2400 baud 8E1"
    ])
    expect(run.stdout.match(/nothing received/gu)).toHaveLength(5)
    expect(run.stdout).toMatch(/Nothing arrived at any speed/u)
  })

  it("hears a Colorado Time Systems console at 8E1 only, and gives its parity in the config and the capture command", async () => {
    // The board before a heat: the previous heat's results, the clock at 0.0, as the console model sends it (played over and over).
    const previous = { results: [{ lane: 2, place: 3, timeMs: 61_870 }, { lane: 3, place: 1, timeMs: 59_140 }, { lane: 4, place: 2, timeMs: 59_880 }] }
    const stream = raceStream({ event: 4, heat: 2, previous, lanes: [{ lane: 3, finishMs: 30_000 }], preStartMs: 4_000, runOnMs: 500 }, { seed: 5 })
    const beforeHorn = stream.chunks.filter((chunk) => chunk.atMs < stream.startMs - 500).map((chunk) => chunk.bytes)
    player = playInLoop(pty.writerPath, new Uint8Array(Buffer.concat(beforeHorn)), 64, 10)
    const run = await sniff("--bauds", "9600")
    expect(run.code, run.stdout).toBe(0)
    // On a pty the bytes read the same at any framing: only the console's own framing may name it. At 8N1 the speed
    // given and the 8N1 consoles' documented 19200 hear the bytes and recognise nothing; then 8E1 at the speed given.
    expect(listening(run.stdout).map((line) => line.match(/at (\d+ baud \w+) for/u)?.[1]), run.stdout).toEqual(["9600 baud 8N1", "19200 baud 8N1", "9600 baud 8E1"])
    expect(run.stdout.match(/^ {2}\d+ bytes, nothing recognised$/gmu)).toHaveLength(2)
    const [, frames, bad] = /Recognised colorado-cts at 9600 baud 8E1: (\d+) frames decoded, (\d+) bad\./u.exec(run.stdout) ?? []
    expect(Number(frames)).toBeGreaterThan(100)
    expect(Number(bad)).toBeLessThanOrEqual(Number(frames) / 10)
    const race = (shownReading(run.stdout, "swimming:") as Reading).race!
    expect(race).toMatchObject({ clockReset: true, event: 4, heat: 2 })
    for (const result of previous.results) expect(race.lanes.find((l) => l.lane === result.lane), `lane ${result.lane}`).toMatchObject({ state: "stopped", ...result })
    expect(run.stdout).toContain(`  to record it (replay, support): scorebridge capture --port ${pty.daemonPath} --baud 9600 --parity even --out capture.ndjson\n`)
    const snippet = ["    scoreboard:", "      protocol: colorado-cts", "      serial:", `        path: ${pty.daemonPath}`, "        baudRate: 9600", "        parity: even"]
    expect(run.stdout.trimEnd().endsWith(snippet.join("\n")), run.stdout).toBe(true)
  })

  it("reports bytes no decoder reads, as at a wrong speed", async () => {
    // What a line at the wrong speed looks like: bytes without structure.
    player = playInLoop(pty.writerPath, seededRandom(6).bytes(8192))
    const run = await sniff("--bauds", "19200")
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/\d+ bytes, nothing recognised/u)
    expect(run.stdout).toMatch(/Bytes arrived but no decoder read them/u)
  })

  it("exits 2 explaining a port that does not exist", async () => {
    const run = await runCli("sniff", ["--port", join(scratch, "ttyGone"), "--seconds", "1"])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/\[FAIL\] serial port .*ttyGone: no such device/u)
  })
})
