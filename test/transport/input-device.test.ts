import { Effect, Fiber, Schema, Stream } from "effect"
import { execFileSync } from "node:child_process"
import { appendFileSync, constants, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { type FileHandle, open } from "node:fs/promises"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { inputEvent } from "../../adapters/input-event/index.ts"
import type { LinkState, ReceivedChunk } from "../../src/domain/received.ts"
import { inputDeviceChunks } from "../../src/transport/input-device.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { keyEdge } from "../support/input-event-record.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const KEY_F13 = 183
const KEY_F14 = 184


// Recent: the decoder believes a kernel time only within minutes before its receive time.
const kernel = Date.now() - 5_000

/** Runs the transport in the background, recording everything it reports. */
const startReading = (path: string) => {
  const chunks: Array<ReceivedChunk> = []
  const states: Array<LinkState & { readonly at: number }> = []
  const fiber = Effect.runFork(
    Stream.runForEach(
      inputDeviceChunks(path, (state) => states.push({ ...state, at: Date.now() })),
      (chunk) => Effect.sync(() => chunks.push(chunk))
    )
  )
  const received = () => Buffer.concat(chunks.map((chunk) => chunk.bytes))
  const count = (tag: LinkState["_tag"]) => states.filter((s) => s._tag === tag).length
  return { chunks, states, received, count, stop: () => Effect.runPromise(Fiber.interrupt(fiber)) }
}
type Reading = ReturnType<typeof startReading>

/** File descriptors this process holds on `path`, other than the test's own writer. */
const fdsOn = (path: string, writer?: FileHandle): number =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return Number(fd) !== writer?.fd && readlinkSync(`/proc/self/fd/${fd}`) === path
    } catch {
      return false
    }
  }).length

const decoderFor = () => inputEvent.makeDecoder({ ...Schema.decodeUnknownSync(inputEvent.optionsSchema)({}), source: "pedal" })

describe("inputDeviceChunks", () => {
  let dir: string
  let reading: Reading | undefined
  let writer: FileHandle | undefined

  beforeEach(() => {
    dir = tempDir("input")
  })
  afterEach(async () => {
    await writer?.close()
    await reading?.stop()
    writer = reading = undefined
    rmSync(dir, { recursive: true, force: true })
  })

  const fifo = (name = "event-kbd") => {
    const path = join(dir, name)
    execFileSync("mkfifo", [path])
    return path
  }
  // The open waits (on a threadpool thread) until the transport opens the other end.
  const openWriter = (path: string) => open(path, "w")

  it("delivers FIFO bytes in order, records split across writes, and they decode to the kernel's edge times", async () => {
    const path = fifo()
    reading = startReading(path)
    const r = reading
    writer = await openWriter(path)
    await eventually("connected", () => (r.count("connected") === 1 ? true : undefined))

    const bytes = Buffer.concat([
      keyEdge(kernel, KEY_F13, 1),
      keyEdge(kernel + 120, KEY_F13, 0),
      keyEdge(kernel + 600, KEY_F14, 1),
      keyEdge(kernel + 700, KEY_F14, 0)
    ])
    const cuts = [0, 10, 48, 70, bytes.length]
    const writtenAt = Date.now()
    for (let i = 0; i + 1 < cuts.length; i++) {
      await writer.write(bytes.subarray(cuts[i], cuts[i + 1]))
      await eventually("a write to arrive", () => (r.received().length >= cuts[i + 1]! ? true : undefined))
    }

    expect(r.received().equals(bytes)).toBe(true)
    for (const chunk of r.chunks) expect(chunk.receivedAt).toBeGreaterThanOrEqual(writtenAt)
    const decoder = decoderFor()
    const events = r.chunks.flatMap((chunk) => [...decoder.push(chunk.bytes, chunk.receivedAt)])
    expect(events).toEqual([
      { source: "pedal", button: String(KEY_F13), gesture: "single", pressedAt: kernel },
      { source: "pedal", button: String(KEY_F14), gesture: "single", pressedAt: kernel + 600 }
    ])
  })

  it("treats the writer closing as a disconnect and reads again when a writer reopens", async () => {
    const path = fifo()
    reading = startReading(path)
    const r = reading
    writer = await openWriter(path)
    await writer.write(keyEdge(kernel, KEY_F13, 1))
    await eventually("bytes before the close", () => (r.received().length === 48 ? true : undefined))

    await writer.close()
    writer = undefined
    const lost = await eventually("disconnected", () => r.states.find((s) => s._tag === "disconnected"))
    expect(lost).toMatchObject({ target: path, reason: "end of file", retryInMs: expect.any(Number) })

    writer = await openWriter(path)
    await eventually("connected again", () => (r.count("connected") === 2 ? true : undefined))
    await writer.write(keyEdge(kernel + 90, KEY_F13, 0))
    await eventually("bytes after the reopen", () => (r.received().length === 96 ? true : undefined))
    expect(r.received().equals(Buffer.concat([keyEdge(kernel, KEY_F13, 1), keyEdge(kernel + 90, KEY_F13, 0)]))).toBe(true)
  })

  it("follows a regular file: reads it, then only what is appended, from the same file", async () => {
    const path = join(dir, "event-file")
    const first = keyEdge(kernel, KEY_F13, 1)
    writeFileSync(path, first)
    reading = startReading(path)
    const r = reading
    await eventually("the file's bytes", () => (r.received().length === first.length ? true : undefined))
    await eventually("end of file", () => r.states.find((s) => s._tag === "disconnected" && s.reason === "end of file"))

    const second = keyEdge(kernel + 80, KEY_F13, 0)
    appendFileSync(path, second)
    await eventually("the appended bytes", () => (r.received().length >= first.length + second.length ? true : undefined))
    const connections = r.count("connected")
    await eventually("a further reopen", () => (r.count("connected") > connections ? true : undefined))
    // Reopened since, and not one byte read twice.
    expect(r.received().equals(Buffer.concat([first, second]))).toBe(true)
  })

  it("keeps retrying an absent device without failing, and connects once it appears", async () => {
    const path = join(dir, "usb-pedal-event-kbd")
    reading = startReading(path)
    const r = reading
    await eventually("three failed opens", () => (r.count("disconnected") >= 3 ? true : undefined))
    expect(r.count("connected")).toBe(0)
    for (const state of r.states.filter((s) => s._tag === "disconnected")) {
      expect(state).toMatchObject({ target: path, reason: expect.stringContaining("ENOENT") })
    }

    fifo("usb-pedal-event-kbd")
    writer = await openWriter(path)
    await eventually("connected", () => (r.count("connected") === 1 ? true : undefined))
    await writer.write(keyEdge(kernel, KEY_F13, 1).subarray(0, 24))
    await eventually("bytes", () => (r.received().length === 24 ? true : undefined))
  })

  it("interruption closes the file, even while a read or the open is still waiting", async () => {
    const path = fifo()
    reading = startReading(path)
    writer = await openWriter(path)
    const r = reading
    await eventually("connected", () => (r.count("connected") === 1 ? true : undefined))
    expect(fdsOn(path, writer)).toBe(1)

    // The read is parked in the threadpool: stopping must not wait for it.
    await reading.stop()
    reading = undefined
    await writer.close()
    writer = undefined
    await eventually("the file closed", () => (fdsOn(path) === 0 ? true : undefined))

    // Waiting in open for a writer that never comes: a late writer finds the file closed again.
    const waiting = startReading(path)
    await eventually("connecting", () => (waiting.count("connecting") === 1 ? true : undefined))
    await waiting.stop()
    // "connecting" is reported when the open is queued; on a loaded machine the threadpool may not
    // have entered open() yet, and a non-blocking writer finds no reader (ENXIO) until it has.
    const late = await eventually("the abandoned open waiting for a writer", () =>
      open(path, constants.O_WRONLY | constants.O_NONBLOCK).catch((err: NodeJS.ErrnoException) => {
        if (err.code === "ENXIO") return undefined
        throw err
      })
    )
    await late.close()
    await eventually("the late open closed", () => (fdsOn(path) === 0 ? true : undefined))
    expect(waiting.count("connected")).toBe(0)
  })
})
