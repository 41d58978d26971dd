import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { parseCapture } from "../../src/replay/capture-format.ts"
import { replay, type ReplayRecord } from "../../src/replay/replay.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { heldLineSettings, runCli, type Started, startCli } from "./support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("capture")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const capturePath = "adapters/daktronics-rtd/fixtures/football-j5-capture.bin"
const daktronicsCapture = new Uint8Array(readFileSync(capturePath))

let pty: PtyPair
let running: Started | undefined
let outputs = 0
let out: string
beforeEach(async () => {
  pty = await startPtyPair(scratch)
  out = join(scratch, `capture-${++outputs}.ndjson`)
})
afterEach(async () => {
  running?.process.kill("SIGKILL")
  await running?.exited
  running = undefined
  await pty.stop()
})

const recorded = (): ReadonlyArray<ReceivedChunk> => {
  const parsed = parseCapture(existsSync(out) ? readFileSync(out, "utf8") : "")
  if (Result.isFailure(parsed)) throw new Error(parsed.failure)
  return parsed.success
}
const byteCount = (chunks: ReadonlyArray<ReceivedChunk>) => chunks.reduce((sum, c) => sum + c.bytes.length, 0)

const startCapture = async (...args: ReadonlyArray<string>): Promise<Started> => {
  running = startCli("capture", ["--port", pty.daemonPath, "--out", out, ...args])
  const started = running
  await eventually("capture to start recording", () => (started.stdout().includes("Recording") ? true : undefined), { timeoutMs: 10_000 })
  return started
}

/** Writes the capture in pieces with pauses, so the recording has real chunk boundaries and times to keep. */
const playPaced = async (bytes: Uint8Array, pieces: number, pauseMs: number): Promise<void> => {
  const writer = openWriter(pty.writerPath)
  try {
    const size = Math.ceil(bytes.length / pieces)
    for (let at = 0; at < bytes.length; at += size) {
      writer.write(bytes.subarray(at, at + size))
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  } finally {
    writer.close()
  }
}

const replayProcess = (...args: ReadonlyArray<string>) =>
  runCli("replay", ["--protocol", "daktronics-rtd", "--sport", "football", ...args])
const records = (stdout: string): Array<ReplayRecord> => stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as ReplayRecord)

describe("scorebridge capture (process)", () => {
  it("records bytes and receive times that replay turns into the same readings as the raw bytes", async () => {
    const started = await startCapture()
    const before = Date.now()
    await playPaced(daktronicsCapture, 12, 80)
    await eventually("every byte in the file", () => (byteCount(recorded()) === daktronicsCapture.length ? true : undefined))
    const after = Date.now()
    started.process.kill("SIGINT")
    const exit = await started.exited
    expect(exit.code).toBe(130)
    expect(started.stdout()).toMatch(new RegExp(`Captured ${daktronicsCapture.length} bytes in \\d+ chunks over \\d+ s into .*\\.ndjson\\.`, "u"))

    const chunks = recorded()
    expect(Buffer.concat(chunks.map((c) => c.bytes)).equals(daktronicsCapture)).toBe(true)
    // Real receive times: in order, within the time the bytes were written, spread over the pauses.
    const times = chunks.map((c) => c.receivedAt)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[0]!).toBeGreaterThanOrEqual(before - 50)
    expect(times.at(-1)!).toBeLessThanOrEqual(after)
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(500)

    const fromCapture = records((await replayProcess(out)).stdout)
    const fromRaw = records((await replayProcess(capturePath)).stdout)
    const readings = (all: ReadonlyArray<ReplayRecord>) => all.flatMap((r) => (r.type === "reading" ? [(({ receivedAt: _, ...fields }) => fields)(r.reading)] : []))
    expect(readings(fromCapture).length).toBeGreaterThan(10)
    expect(readings(fromCapture)).toEqual(readings(fromRaw))
    // …each stamped with the receive time of the chunk that completed it.
    const decoded = [...replay(protocols["daktronics-rtd"]!.makeDecoder({ sport: "football" }), "football", chunks)]
    expect(fromCapture.filter((r) => r.type === "reading")).toEqual(decoded.filter((r) => r.type === "reading"))
    expect(new Set(fromCapture.flatMap((r) => (r.type === "reading" ? [r.at] : []))).size).toBeGreaterThan(1)
  })

  it("stops by itself after --seconds, printing a running byte count", async () => {
    const started = await startCapture("--seconds", "2", "--progress-seconds", "1")
    await playPaced(daktronicsCapture.subarray(0, 2000), 4, 50)
    const exit = await started.exited
    expect(exit.code).toBe(0)
    expect(started.stdout()).toMatch(/^ {2}2000 bytes in \d+ chunks, \d+ s$/mu)
    expect(byteCount(recorded())).toBe(2000)
  })

  it("keeps every line written before a kill -9", async () => {
    const started = await startCapture()
    await playPaced(daktronicsCapture.subarray(0, 3000), 3, 50)
    await eventually("the bytes in the file", () => (byteCount(recorded()) === 3000 ? true : undefined))
    started.process.kill("SIGKILL")
    await started.exited
    expect(Buffer.concat(recorded().map((c) => c.bytes)).equals(daktronicsCapture.subarray(0, 3000))).toBe(true)
  })

  it("opens the port with the framing asked (--data-bits, --parity, --stop-bits), names it, and refuses a parity it does not know", async () => {
    const odd = await startCapture("--baud", "2400", "--data-bits", "7", "--parity", "odd", "--stop-bits", "2")
    expect(odd.stdout()).toContain(`Recording ${pty.daemonPath} at 2400 baud 7O2 into ${out}`)
    expect(heldLineSettings(pty.daemonPath)).toEqual({ speed: 2400, parodd: true, cstopb: true })
    odd.process.kill("SIGINT")
    expect((await odd.exited).code).toBe(130)
    // Even parity after odd: the sense the port held is replaced (a capture that ignored --parity would leave it odd).
    out = join(scratch, `capture-${++outputs}.ndjson`)
    const even = await startCapture("--baud", "9600", "--parity", "even")
    expect(even.stdout()).toContain(`Recording ${pty.daemonPath} at 9600 baud 8E1 into ${out}`)
    expect(heldLineSettings(pty.daemonPath)).toEqual({ speed: 9600, parodd: false, cstopb: false })
    even.process.kill("SIGINT")
    await even.exited
    const mark = await runCli("capture", ["--port", pty.daemonPath, "--out", join(scratch, "mark.ndjson"), "--parity", "mark"])
    // Refused by the flag parser, as any bad flag value is: its message, no port opened, no file.
    expect(mark.code).not.toBe(0)
    expect(mark.stderr).toMatch(/Invalid value for flag --parity: "mark"\. Expected: "none" \| "even" \| "odd"/u)
    expect(existsSync(join(scratch, "mark.ndjson"))).toBe(false)
  })

  it("never overwrites an earlier capture", async () => {
    writeFileSync(out, "earlier\n")
    const run = await runCli("capture", ["--port", pty.daemonPath, "--out", out, "--seconds", "1"])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/already exists: choose another --out/u)
    expect(readFileSync(out, "utf8")).toBe("earlier\n")
  })

  it("exits 2 for a port that does not exist, leaving no empty file", async () => {
    const run = await runCli("capture", ["--port", join(scratch, "ttyGone"), "--out", out, "--seconds", "1"])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/no such device/u)
    expect(existsSync(out)).toBe(false)
  })
})
