import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { protocolNames } from "../../adapters/registry.ts"
import { captureLine } from "../../src/replay/capture-format.ts"
import type { ReplayRecord } from "../../src/replay/replay.ts"
import { rtdFieldConsole } from "../scoreboard/consoles/daktronics-fields.ts"
import { tennisFields } from "../scoreboard/consoles/daktronics.ts"
import { expectedEntries } from "../scoreboard/matches/match.ts"
import { tennisEntry } from "../scoreboard/matches/tennis-set.ts"
import { tennisGameWon } from "../scoreboard/matches/turning-points.ts"
import { type Run, runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { cleanCapturePath, entriesOf, expectedGenericChanges, fixture, readingsOf, summaryOf, terminalCapturePath } from "./support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** `scorebridge replay …` as a real process. */
const replayProcess = (...args: ReadonlyArray<string>): Promise<Run> => runScorebridge("replay", args, {}, 20_000)

const ndjson = (stdout: string): Array<ReplayRecord> => stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as ReplayRecord)

const scratch = tempDir("replay")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const badCapture = join(scratch, "bad.ndjson")
writeFileSync(badCapture, '{"t":1,"b":"AA=="}\n{"t":2}\n')

describe("scorebridge replay (process)", () => {
  it("prints the real capture's readings, entries and summary as NDJSON", async () => {
    const run = await replayProcess("--protocol", "daktronics-rtd", "--sport", "football", cleanCapturePath)
    // Without receive times the daemon's settling cannot be replayed: said once, on stderr.
    expect(run.stderr).toMatch(/^scorebridge replay: .*football-j5-capture\.bin has no receive times, so changes are not settled \(the daemon holds each for 80 ms\)/)
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(run.code).toBe(0)
    const records = ndjson(run.stdout)
    const readings = readingsOf(records)
    const entries = entriesOf(records)
    expect(summaryOf(records)).toMatchObject({ badFrames: 0, readings: readings.length, entries: entries.length })
    expect(entries.length).toBe(expectedGenericChanges(readings.map((r) => r.reading)).length)
    expect(entries.length).toBeGreaterThan(10)
    // Raw bytes carry no times: by default everything is stamped 0.
    expect(records.every((r) => r.type === "summary" || r.at === 0)).toBe(true)
  })

  it("prints only a summary for the terminal capture", async () => {
    const run = await replayProcess("--protocol", "daktronics-rtd", "--sport", "football", terminalCapturePath)
    expect(run.code).toBe(0)
    const records = ndjson(run.stdout)
    expect(records).toHaveLength(1)
    expect(summaryOf(records)).toMatchObject({ frames: 0, readings: 0, entries: 0 })
  })

  it("uses the receive times recorded in a .ndjson capture", async () => {
    const bytes = fixture(cleanCapturePath)
    const half = 4600
    const path = join(scratch, "venue.ndjson")
    writeFileSync(path, captureLine({ receivedAt: 1_000, bytes: bytes.subarray(0, half) }) + captureLine({ receivedAt: 2_000, bytes: bytes.subarray(half) }))
    const run = await replayProcess("--protocol", "daktronics-rtd", "--sport", "football", path)
    expect(run.stderr).toBe("")
    const records = ndjson(run.stdout)
    const times = new Set(readingsOf(records).map((r) => r.at))
    expect([...times]).toEqual([1_000, 2_000])
    expect(summaryOf(records)).toMatchObject({ chunks: 2, bytes: bytes.length, badFrames: 0 })
  })

  it("times a raw capture evenly, or from a .times sidecar", async () => {
    const even = await replayProcess("--protocol", "daktronics-rtd", "--sport", "football", "--start", "500", "--chunk-ms", "10", "--chunk-bytes", "1000", cleanCapturePath)
    const evenTimes = readingsOf(ndjson(even.stdout)).map((r) => r.at)
    expect(evenTimes.every((t) => t >= 500 && t <= 590 && t % 10 === 0)).toBe(true)
    expect(new Set(evenTimes).size).toBeGreaterThan(3)

    const sidecar = join(scratch, "capture.times")
    writeFileSync(sidecar, `# receivedAt bytes\n7000 4600\n9000 ${fixture(cleanCapturePath).length - 4600}\n`)
    const timed = await replayProcess("--protocol", "daktronics-rtd", "--sport", "football", "--timestamps", sidecar, cleanCapturePath)
    expect(timed.stderr).toBe("")
    expect([...new Set(readingsOf(ndjson(timed.stdout)).map((r) => r.at))]).toEqual([7000, 9000])
  })

  it("settles a change sent as several frames, as the daemon does, in a capture with receive times", async () => {
    // Score fields before the clock, so each step's first frame is one that changes the score.
    const console = rtdFieldConsole(tennisFields, "reversed")
    const steps = tennisGameWon()
    // Each step's frames 10 ms apart (one read each), steps a second apart.
    const lines: Array<string> = []
    const firstFrameAt: Array<number> = []
    steps.forEach((step, i) => {
      firstFrameAt[i] = 1_000 * (i + 1)
      console.frames(step.board).forEach((bytes, f) => lines.push(captureLine({ receivedAt: firstFrameAt[i]! + 10 * f, bytes })))
    })
    const path = join(scratch, "game-won.ndjson")
    writeFileSync(path, lines.join(""))
    const expected = expectedEntries(steps, tennisEntry).map(({ entry, step }) => ({ ...entry, timeStamp: firstFrameAt[step] }))

    const settled = await replayProcess("--protocol", "daktronics-rtd", "--sport", "tennis", path)
    expect(settled.stderr).toBe("")
    expect(entriesOf(ndjson(settled.stdout)).map((r) => r.entry)).toEqual(expected)

    // The same capture unsettled shows the states in between, which the board never showed.
    const unsettled = await replayProcess("--protocol", "daktronics-rtd", "--sport", "tennis", "--settle-ms", "0", path)
    expect(entriesOf(ndjson(unsettled.stdout)).length).toBeGreaterThan(expected.length)
  })

  const usageErrors: ReadonlyArray<readonly [string, ReadonlyArray<string>, RegExp]> = [
    ["a missing file", ["--protocol", "daktronics-rtd", "--sport", "football", join(scratch, "absent.bin")], /cannot read capture .*absent\.bin: no such file/],
    ["no file at all", ["--protocol", "daktronics-rtd", "--sport", "football"], /which capture/],
    ["an unknown protocol", ["--protocol", "daktronix", "--sport", "football", cleanCapturePath], new RegExp(`unknown protocol "daktronix".*${protocolNames.join(", ")}`)],
    ["no sport", ["--protocol", "daktronics-rtd", cleanCapturePath], /--sport is required/],
    ["bad --options JSON", ["--protocol", "daktronics-rtd", "--sport", "football", "--options", "{tennisPoints", cleanCapturePath], /--options is not valid JSON/],
    ["a bad .ndjson line", ["--protocol", "daktronics-rtd", "--sport", "football", badCapture], /bad\.ndjson: line 2 /],
    ["even timing for a .ndjson capture", ["--protocol", "daktronics-rtd", "--sport", "football", "--chunk-ms", "5", badCapture], /own receive times/],
    ["a settle window out of range", ["--protocol", "daktronics-rtd", "--sport", "football", "--settle-ms", "5000", cleanCapturePath], /--settle-ms must be a whole number of ms from 0 to 1000, got 5000/],
    ["invalid options", ["--protocol", "daktronics-rtd", "--sport", "football", "--options", '{"tennisPoints":"games"}', cleanCapturePath], /options\.tennisPoints: expected/]
  ]

  // Independent processes: run side by side to keep the suite quick.
  it.concurrent.each(usageErrors)("refuses %s with one line on stderr and exit code 2", async (_, args, message) => {
    const run = await replayProcess(...args)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe("")
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/)
  })
})
