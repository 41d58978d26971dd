import { Effect, Fiber, Logger, References, Schema, Stream } from "effect"
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { format } from "node:util"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { gpiomon } from "../../adapters/gpiomon/index.ts"
import type { LinkState, ReceivedChunk } from "../../src/domain/received.ts"
import { type GpiomonOptions, gpiomonArguments, gpiomonChunks, parseGpiomonVersion } from "../../src/transport/gpiomon.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { isRunning } from "../process/child-support.ts"

/** Runs the transport in the background, recording everything it reports and logs. */
const startReading = (options: GpiomonOptions) => {
  const chunks: Array<ReceivedChunk> = []
  const states: Array<LinkState> = []
  const logs: Array<string> = []
  const collector = Logger.make(({ message }) => logs.push(format(...(Array.isArray(message) ? message : [message]))))
  const fiber = Effect.runFork(
    Stream.runForEach(gpiomonChunks(options, (state) => states.push(state)), (chunk) => Effect.sync(() => chunks.push(chunk))).pipe(
      Effect.provide(Logger.layer([collector])),
      // Debug too: the transport says so when it holds back a line of gpiomon's stderr.
      Effect.provideService(References.MinimumLogLevel, "Debug")
    )
  )
  const received = () => Buffer.concat(chunks.map((chunk) => chunk.bytes)).toString("utf8")
  const count = (tag: LinkState["_tag"]) => states.filter((s) => s._tag === tag).length
  return { chunks, states, logs, received, count, stop: () => Effect.runPromise(Fiber.interrupt(fiber)) }
}
type Reading = ReturnType<typeof startReading>

/** gpiomon v2's time format with `-E realtime`: UTC with nanoseconds. */
const utc = (ms: number) => new Date(ms).toISOString().replace("Z", "456789Z")

describe("gpiomon arguments", () => {
  it("v1 line-buffers with -b; v2 names the chip with -c and asks for the wall clock", () => {
    expect(gpiomonArguments(1, "gpiochip0", [17, 27])).toEqual(["-b", "gpiochip0", "17", "27"])
    expect(gpiomonArguments(2, "gpiochip0", [17, 27])).toEqual(["-c", "gpiochip0", "-E", "realtime", "17", "27"])
  })

  it.each([
    ["gpiomon (libgpiod) v1.6.3\nCopyright (C) 2017-2018 Bartosz Golaszewski", 1],
    ["gpiomon (libgpiod) v2.1.3\nCopyright (C) 2017-2023 Bartosz Golaszewski", 2],
    ["gpiomon (libgpiod) v2.0-devel", 2],
    ["usage: gpiomon", undefined]
  ])("reads the version of %j", (text, version) => {
    expect(parseGpiomonVersion(text)).toBe(version)
  })
})

describe("gpiomonChunks with a stand-in gpiomon", () => {
  let dir: string
  let reading: Reading | undefined

  beforeEach(() => {
    dir = tempDir("gpiomon")
  })
  afterEach(async () => {
    await reading?.stop()
    reading = undefined
    rmSync(dir, { recursive: true, force: true })
  })

  /** A shell script that answers `--version` like libgpiod `version`, records its pid and arguments, then runs `body`. */
  const standIn = (body: string, version = "2.1.3") => {
    const path = join(dir, "gpiomon")
    writeFileSync(path, [
      "#!/bin/sh",
      `if [ "$1" = "--version" ]; then echo "gpiomon (libgpiod) v${version}"; exit 0; fi`,
      `echo $$ >> "${dir}/pids"`,
      `echo "$*" >> "${dir}/args"`,
      body
    ].join("\n"))
    chmodSync(path, 0o755)
    return path
  }
  const fileLines = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8").trim().split("\n") : [])
  const pids = () => fileLines("pids").map(Number)
  /** Keeps running until killed, with a child of its own in the same process group. */
  const keepRunning = () => `sleep 30 & echo $! > "${dir}/sleep.pid"; wait`

  it("delivers gpiomon's lines with the v2 arguments, and they decode to gpiomon's edge times", async () => {
    const pressAt = Date.now() - 2_000
    const edges = [`${utc(pressAt)}\trising\tgpiochip0 17`, `${utc(pressAt + 120)}\tfalling\tgpiochip0 17`]
    const command = standIn(`printf '%s\\n' '${edges[0]}'; sleep 0.1; printf '%s\\n' '${edges[1]}'; ${keepRunning()}`)
    const startedAt = Date.now()
    reading = startReading({ command, chip: "gpiochip0", lines: [17, 27] })
    const r = reading
    await eventually("both edges", () => (r.received() === edges.map((line) => `${line}\n`).join("") ? true : undefined))

    expect(fileLines("args")).toEqual(["-c gpiochip0 -E realtime 17 27"])
    expect(r.states.slice(0, 2)).toEqual([
      { _tag: "connecting", target: `${command} gpiochip0 17 27` },
      { _tag: "connected", target: `${command} gpiochip0 17 27` }
    ])
    for (const chunk of r.chunks) expect(chunk.receivedAt).toBeGreaterThanOrEqual(startedAt)
    const decoder = gpiomon.makeDecoder({ ...Schema.decodeUnknownSync(gpiomon.optionsSchema)({}), source: "gpio" })
    const events = r.chunks.flatMap((chunk) => [...decoder.push(chunk.bytes, chunk.receivedAt)])
    expect(events).toEqual([{ source: "gpio", button: "17", gesture: "single", pressedAt: pressAt }])
  })

  it("runs v1 with -b, and starts gpiomon again whenever it exits", async () => {
    const command = standIn(`echo "event:  RISING EDGE offset: 4 timestamp: [1700000000.123456789]"; exit 0`, "1.6.3")
    reading = startReading({ command, chip: "gpiochip1", lines: [4] })
    const r = reading
    await eventually("three runs", () => (pids().length >= 3 ? true : undefined))
    await eventually("their output", () => (r.received().split("\n").length > 3 ? true : undefined))

    expect(new Set(fileLines("args"))).toEqual(new Set(["-b gpiochip1 4"]))
    expect(new Set(r.received().trim().split("\n"))).toEqual(new Set(["event:  RISING EDGE offset: 4 timestamp: [1700000000.123456789]"]))
    expect(r.states.find((s) => s._tag === "disconnected")).toMatchObject({ reason: `${command} exited with code 0` })
  })

  it("puts gpiomon's last complaint in the disconnect reason", async () => {
    const command = standIn(`echo "gpiomon: unable to request lines on chip '/dev/gpiochip0': Device or resource busy" >&2; exit 1`)
    reading = startReading({ command, chip: "gpiochip0", lines: [17], version: 2 })
    const r = reading
    const lost = await eventually("disconnected", () => r.states.find((s) => s._tag === "disconnected"))
    expect(lost.reason).toBe(`${command} exited with code 1: gpiomon: unable to request lines on chip '/dev/gpiochip0': Device or resource busy`)
  })

  it("logs gpiomon's stderr, but only a few lines a minute", async () => {
    const command = standIn(`for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "complaint $i" >&2; done; ${keepRunning()}`)
    reading = startReading({ command, chip: "gpiochip0", lines: [17], version: 2 })
    const r = reading
    // The twelfth line read: every line before it has been logged or held back.
    await eventually("the seven lines past five held back", () => (r.logs.includes("gpiomon: stderr line not logged (7 this minute)") ? true : undefined))
    expect(r.logs.filter((line) => line.startsWith("gpiomon: complaint"))).toEqual([1, 2, 3, 4, 5].map((i) => `gpiomon: complaint ${i}`))
  })

  it.each([["auto" as const], [2 as const]])("a missing command (version %s) is a clear disconnect reason, retried, not a crash", async (version) => {
    const command = join(dir, "no-gpiomon-here")
    reading = startReading({ command, chip: "gpiochip0", lines: [17], version })
    const r = reading
    await eventually("two failed starts", () => (r.count("disconnected") >= 2 ? true : undefined))
    expect(r.count("connected")).toBe(0)
    for (const state of r.states.filter((s) => s._tag === "disconnected")) {
      expect(state.reason).toBe(`${command} not found: apt-get install gpiod`)
    }
  })

  it("interruption ends gpiomon and what it started", async () => {
    const command = standIn(keepRunning())
    reading = startReading({ command, chip: "gpiochip0", lines: [17], version: 2 })
    const r = reading
    await eventually("connected", () => (r.count("connected") === 1 ? true : undefined))
    const sleeper = await eventually("the child's child", () => fileLines("sleep.pid").map(Number)[0])
    const [pid] = pids()
    expect(isRunning(pid!) && isRunning(sleeper)).toBe(true)

    await reading.stop()
    reading = undefined
    await eventually("the stand-in gone", () => (!isRunning(pid!) && !isRunning(sleeper) ? true : undefined))
  })

  it("kills a gpiomon that ignores SIGTERM after the grace period", async () => {
    const command = standIn(`trap '' TERM; ${keepRunning()}`)
    reading = startReading({ command, chip: "gpiochip0", lines: [17], version: 2 })
    const r = reading
    await eventually("connected", () => (r.count("connected") === 1 ? true : undefined))
    const sleeper = await eventually("the child's child", () => fileLines("sleep.pid").map(Number)[0])
    const [pid] = pids()

    const stoppingAt = Date.now()
    await reading.stop()
    reading = undefined
    expect(Date.now() - stoppingAt).toBeGreaterThanOrEqual(900)
    await eventually("the stand-in gone", () => (!isRunning(pid!) && !isRunning(sleeper) ? true : undefined))
  })
})
