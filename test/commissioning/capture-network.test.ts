import { createSocket } from "node:dgram"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server, type Socket } from "node:net"
import { join } from "node:path"
import { Result } from "effect"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { parseCapture } from "../../src/replay/capture-format.ts"
import { replay, type ReplayRecord } from "../../src/replay/replay.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { connectConsole, sendDatagrams, startConsoleServer, stramatelFrames, writePaced } from "./network-console.ts"
import { sleep } from "../support/sleep.ts"
import { runCli, type Started, startCli } from "./support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("capture-net")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const frameBytes = 54
let running: Started | undefined
let consoles: Array<Socket> = []
let cleanups: Array<() => Promise<void>> = []
let outputs = 0
let out: string
beforeEach(() => {
  out = join(scratch, `capture-${++outputs}.ndjson`)
})
afterEach(async () => {
  running?.process.kill("SIGKILL")
  await running?.exited
  running = undefined
  for (const socket of consoles) socket.destroy()
  consoles = []
  for (const cleanup of cleanups) await cleanup()
  cleanups = []
})

const recorded = (): ReadonlyArray<ReceivedChunk> => {
  const parsed = parseCapture(existsSync(out) ? readFileSync(out, "utf8") : "")
  if (Result.isFailure(parsed)) throw new Error(parsed.failure)
  return parsed.success
}
const recordedBytes = () => Buffer.concat(recorded().map((c) => c.bytes))

const start = async (args: ReadonlyArray<string>, waitingFor: string): Promise<Started> => {
  running = startCli("capture", [...args, "--out", out])
  const started = running
  await eventually(`capture to print "${waitingFor}"`, () => (started.stdout().includes(waitingFor) ? true : undefined), { timeoutMs: 10_000 })
  return started
}

const consoleOn = async (port: number): Promise<Socket> => {
  const socket = await connectConsole(port)
  socket.on("error", () => undefined)
  consoles.push(socket)
  return socket
}

/** A port held by someone else, as the running daemon holds its listen port. */
const holdPort = async (kind: "tcp" | "udp"): Promise<number> => {
  const port = await freePort()
  if (kind === "udp") {
    const socket = createSocket("udp4")
    await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", () => resolve()))
    cleanups.push(() => new Promise((resolve) => socket.close(() => resolve())))
    return port
  }
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port }, () => resolve()))
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
  return port
}

const readingsOf = (records: ReadonlyArray<ReplayRecord>) =>
  records.flatMap((r) => (r.type === "reading" ? [(({ receivedAt: _, ...fields }) => fields)(r.reading)] : []))

describe("scorebridge capture over the network (process)", () => {
  it("waits for a console to connect over TCP and records its bytes with receive times that replay reads back", async () => {
    const port = await freePort()
    const started = await start(["--tcp-listen", `127.0.0.1:${port}`], `Waiting for a console to connect to 127.0.0.1:${port}…`)
    const frames = stramatelFrames(30)
    const before = Date.now()
    const socket = await consoleOn(port)
    const recording = await eventually("the Recording line", () => started.stdout().match(/Recording console 127\.0\.0\.1:(\d+) into /u) ?? undefined)
    expect(Number(recording[1])).toBe(socket.localPort)
    await writePaced(socket, frames, 10, 80)
    await eventually("every byte in the file", () => (recordedBytes().length === frames.length ? true : undefined))
    const after = Date.now()
    started.process.kill("SIGINT")
    expect((await started.exited).code).toBe(130)
    expect(started.stdout()).toMatch(new RegExp(`Captured ${frames.length} bytes in \\d+ chunks over \\d+ s into .*\\.ndjson\\.`, "u"))

    const chunks = recorded()
    expect(recordedBytes().equals(frames)).toBe(true)
    const times = chunks.map((c) => c.receivedAt)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[0]!).toBeGreaterThanOrEqual(before)
    expect(times.at(-1)!).toBeLessThanOrEqual(after)
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(500)

    // The file as `scorebridge replay` reads it: every frame's reading, each at the time its chunk arrived.
    const replayed = await runCli("replay", ["--protocol", "stramatel-452m", "--sport", "volleyball", out])
    expect(replayed.code).toBe(0)
    const fromFile = replayed.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as ReplayRecord)
    const expected = protocols["stramatel-452m"]!.makeDecoder({ sport: "volleyball" }).push(frames, 0).map(({ receivedAt: _, ...fields }) => fields)
    expect(expected).toHaveLength(30)
    expect(readingsOf(fromFile)).toEqual(expected)
    const decoded = [...replay(protocols["stramatel-452m"]!.makeDecoder({ sport: "volleyball" }), "volleyball", chunks)]
    expect(fromFile.filter((r) => r.type === "reading")).toEqual(decoded.filter((r) => r.type === "reading"))
    expect(new Set(fromFile.flatMap((r) => (r.type === "reading" ? [r.at] : []))).size).toBeGreaterThan(5)
  })

  it("lets a second connection replace the first, as the daemon does, and says so", async () => {
    const port = await freePort()
    const started = await start(["--tcp-listen", `127.0.0.1:${port}`], "Waiting for a console")
    const frames = stramatelFrames(6)
    const first = await consoleOn(port)
    first.write(frames.subarray(0, 2 * frameBytes))
    await eventually("the first console's bytes", () => (recordedBytes().length === 2 * frameBytes ? true : undefined))
    const firstPort = first.localPort
    const second = await consoleOn(port)
    const secondPort = second.localPort
    await eventually("the replacement line", () => (started.stdout().includes(`A new connection from 127.0.0.1:${secondPort} replaces console 127.0.0.1:${firstPort}`) ? true : undefined))
    // capture closes the replaced connection; that is not the console gone: bytes sent after it are still recorded.
    const firstClosed = first.closed ? Promise.resolve() : new Promise((resolve) => first.once("close", resolve))
    first.write(Buffer.from("from the replaced connection"))
    second.write(frames.subarray(2 * frameBytes, 5 * frameBytes))
    await firstClosed
    second.write(frames.subarray(5 * frameBytes))
    await eventually("the second console's bytes", () => (recordedBytes().length === frames.length ? true : undefined))
    expect(started.process.exitCode).toBeNull()
    started.process.kill("SIGTERM")
    expect((await started.exited).code).toBe(130)
    expect(recordedBytes().equals(frames)).toBe(true)
  })

  it("records UDP datagrams one chunk each, --seconds counting from the first datagram", async () => {
    const port = await freePort()
    const started = await start(["--udp-listen", `127.0.0.1:${port}`, "--seconds", "1"], `Waiting for the console's datagrams on 127.0.0.1:${port}…`)
    // The console sends later than --seconds after the bind: a window counted from the bind would
    // have ended, and the datagrams below would not be recorded.
    await sleep(1_500)
    const frames = stramatelFrames(5)
    const datagrams = Array.from({ length: 5 }, (_, i) => frames.subarray(i * frameBytes, (i + 1) * frameBytes))
    const sender = await sendDatagrams(port, datagrams, 100)
    const exit = await started.exited
    expect(exit.code).toBe(0)
    expect(started.stdout()).toContain(`Recording console 127.0.0.1:${sender} (UDP to 127.0.0.1:${port}) into `)
    expect(recorded().map((c) => Buffer.from(c.bytes))).toEqual(datagrams.map((d) => Buffer.from(d)))
  })

  it("gives up on Ctrl-C while no console has connected, leaving no file", async () => {
    const port = await freePort()
    const started = await start(["--tcp-listen", `127.0.0.1:${port}`, "--seconds", "5"], "Waiting for a console")
    started.process.kill("SIGINT")
    expect((await started.exited).code).toBe(130)
    running = undefined
    expect(started.stdout()).not.toMatch(/Recording|Captured/u)
    expect(existsSync(out)).toBe(false)
  })

  it("exits 1 when the console disconnects, keeping what arrived", async () => {
    const port = await freePort()
    const started = await start(["--tcp-listen", `127.0.0.1:${port}`], "Waiting for a console")
    const frames = stramatelFrames(3)
    const socket = await consoleOn(port)
    const consolePort = socket.localPort
    socket.write(frames)
    await eventually("the bytes in the file", () => (recordedBytes().length === frames.length ? true : undefined))
    socket.end()
    const exit = await started.exited
    expect(exit.code).toBe(1)
    running = undefined
    expect(started.stderr()).toContain(`Capture cut short: console 127.0.0.1:${consolePort} closed the connection; what arrived until then is in ${out}`)
    expect(recordedBytes().equals(frames)).toBe(true)
    expect(started.stdout()).toMatch(new RegExp(`Captured ${frames.length} bytes`, "u"))
  })

  it("connects to a converter with --tcp-connect and stops after --seconds", async () => {
    const converter = await startConsoleServer(stramatelFrames(20))
    cleanups.push(converter.close)
    const run = await runCli("capture", ["--tcp-connect", `127.0.0.1:${converter.port}`, "--out", out, "--seconds", "1"])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Recording 127.0.0.1:${converter.port} (TCP) into `)
    const decoder = protocols["stramatel-452m"]!.makeDecoder({ sport: "volleyball" })
    expect(decoder.push(recordedBytes(), 0).length).toBeGreaterThan(10)
    expect(decoder.stats.badFrames).toBe(0)
    expect(converter.accepted()).toBe(1)
  })

  it("exits 2 with the network reason for a link that cannot be used, leaving no file", async () => {
    const refused = await runCli("capture", ["--tcp-connect", `127.0.0.1:${await freePort()}`, "--out", out, "--seconds", "1"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/127\.0\.0\.1:\d+ refused the connection: nothing listens on that port/u)
    expect(existsSync(out)).toBe(false)

    for (const flag of ["--tcp-listen", "--udp-listen"] as const) {
      const held = await holdPort(flag === "--tcp-listen" ? "tcp" : "udp")
      const inUse = await runCli("capture", [flag, `127.0.0.1:${held}`, "--out", out, "--seconds", "1"])
      expect(inUse.code, flag).toBe(2)
      expect(inUse.stderr, flag).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${held}: another program .* already uses that port`, "u"))
      expect(existsSync(out), flag).toBe(false)
    }
  })

  it("exits 2 unless exactly one link is given, well formed, with --baud and the framing only for --port", async () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
      [[], /give exactly one of --port PATH .*--tcp-listen HOST:PORT/u],
      [["--port", "/dev/ttyUSB9", "--tcp-listen", "127.0.0.1:4001"], /give exactly one of .*, not 2/u],
      [["--tcp-listen", "4001"], /--tcp-listen must be host:port, e\.g\. 0\.0\.0\.0:4001 .*got "4001"/u],
      [["--udp-listen", "127.0.0.1:70000"], /--udp-listen must be host:port/u],
      [["--tcp-connect", "127.0.0.1:4001", "--baud", "9600"], /--baud goes with --port only/u],
      [["--udp-listen", "127.0.0.1:4002", "--parity", "even"], /--data-bits, --parity and --stop-bits go with --port only/u]
    ]
    for (const [args, message] of cases) {
      const run = await runCli("capture", [...args, "--out", out, "--seconds", "1"])
      expect(run.code, args.join(" ")).toBe(2)
      expect(run.stderr, args.join(" ")).toMatch(message)
    }
    writeFileSync(out, "earlier\n")
    const existing = await runCli("capture", ["--tcp-listen", `127.0.0.1:${await freePort()}`, "--out", out, "--seconds", "1"])
    expect(existing.code).toBe(2)
    expect(existing.stderr).toMatch(/already exists/u)
    expect(readFileSync(out, "utf8")).toBe("earlier\n")
  })
})
