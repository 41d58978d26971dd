import { Effect, Fiber, Stream } from "effect"
import { readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { LinkState, ReceivedChunk } from "../../src/domain/received.ts"
import { type SerialOptions, serialChunks } from "../../src/transport/serial.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyPair, type PtyWriter, startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const line = (path: string): SerialOptions => ({ path, baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 })

/** Runs the transport in the background, recording everything it reports. */
const startReading = (options: SerialOptions) => {
  const chunks: Array<ReceivedChunk> = []
  const states: Array<LinkState & { readonly at: number }> = []
  const fiber = Effect.runFork(
    Stream.runForEach(
      serialChunks(options, (state) => states.push({ ...state, at: Date.now() })),
      (chunk) => Effect.sync(() => chunks.push(chunk))
    )
  )
  const received = () => Buffer.concat(chunks.map((chunk) => chunk.bytes))
  const connectedCount = () => states.filter((s) => s._tag === "connected").length
  return { chunks, states, received, connectedCount, stop: () => Effect.runPromise(Fiber.interrupt(fiber)) }
}
type Reading = ReturnType<typeof startReading>

/** File descriptors this process holds on the pty behind `path` (the daemon end). */
const fdsOn = (ptsDevice: string): number =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === ptsDevice
    } catch {
      return false
    }
  }).length

describe("serialChunks over a socat pty pair", () => {
  let dir: string
  let pty: PtyPair | undefined
  let reading: Reading | undefined
  let writer: PtyWriter | undefined

  beforeEach(() => {
    dir = tempDir("serial")
  })
  afterEach(async () => {
    writer?.close()
    await reading?.stop()
    await pty?.stop()
    writer = reading = pty = undefined
    rmSync(dir, { recursive: true, force: true })
  })

  it("delivers every byte value in order, stamped with its receive time", async () => {
    pty = await startPtyPair(dir)
    reading = startReading(line(pty.daemonPath))
    const r = reading
    await eventually("connected", () => (r.connectedCount() === 1 ? true : undefined))
    writer = openWriter(pty.writerPath)

    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    const writtenAt: Array<number> = []
    for (let offset = 0; offset < all.length; offset += 64) {
      writtenAt.push(Date.now())
      writer.write(all.subarray(offset, offset + 64))
      // Separate writes so some chunks arrive apart and their stamps can be told apart.
      await eventually("a write to arrive", () => (r.received().length >= offset + 64 ? true : undefined))
    }
    const doneAt = Date.now()

    expect([...r.received()]).toEqual([...all])
    const stamps = r.chunks.map((chunk) => chunk.receivedAt)
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
    expect(stamps[0]).toBeGreaterThanOrEqual(writtenAt[0]!)
    expect(stamps.at(-1)).toBeGreaterThanOrEqual(writtenAt.at(-1)!)
    expect(stamps.at(-1)).toBeLessThanOrEqual(doneAt)
  })

  it("reports an unplug, and reads again within 2 s of the replug even at full back-off", async () => {
    pty = await startPtyPair(dir)
    reading = startReading(line(pty.daemonPath))
    const r = reading
    await eventually("connected", () => (r.connectedCount() === 1 ? true : undefined))
    writeToPty(pty.writerPath, "before")
    await eventually("bytes before the unplug", () => (r.received().toString() === "before" ? true : undefined))

    await pty.unplug()
    const lost = await eventually("a disconnected state", () => r.states.find((s) => s._tag === "disconnected"))
    // Whichever sees it first: serialport's close, or the watch on the vanished path.
    expect(lost).toMatchObject({ target: pty.daemonPath, reason: expect.stringMatching(/disconnected|device path gone/) })

    // Wait until the back-off is near its cap (≥ 1.2 s) so the 2 s promise is tested at its worst.
    await eventually(
      "the back-off to reach its cap",
      () => r.states.find((s) => s._tag === "disconnected" && s.retryInMs >= 1_200),
      { timeoutMs: 10_000 }
    )
    expect(r.states.every((s) => s._tag !== "disconnected" || s.retryInMs <= 2_000)).toBe(true)

    await pty.replug()
    const replugAt = Date.now()
    const back = await eventually("reconnected", () => r.states.find((s) => s._tag === "connected" && s.at >= replugAt))
    expect(back.at - replugAt).toBeLessThan(2_000)

    writeToPty(pty.writerPath, "after")
    await eventually("bytes after the replug", () => (r.received().toString() === "beforeafter" ? true : undefined))
  })

  it("keeps retrying an absent port without failing, and connects once it appears", async () => {
    const path = join(dir, "tty-daemon")
    reading = startReading(line(path))
    const r = reading
    await eventually(
      "three failed opens",
      () => (r.states.filter((s) => s._tag === "disconnected").length >= 3 ? true : undefined)
    )
    expect(r.connectedCount()).toBe(0)
    const failed = r.states.filter((s) => s._tag === "disconnected")
    for (const state of failed) expect(state).toMatchObject({ target: path, retryInMs: expect.any(Number) })

    pty = await startPtyPair(dir)
    expect(pty.daemonPath).toBe(path)
    await eventually("connected", () => (r.connectedCount() === 1 ? true : undefined), { timeoutMs: 3_000 })
    writeToPty(pty.writerPath, "hello")
    await eventually("bytes", () => (r.received().toString() === "hello" ? true : undefined))
  })

  it("closes the port when the stream is interrupted", async () => {
    pty = await startPtyPair(dir)
    const device = realpathSync(pty.daemonPath)
    expect(fdsOn(device)).toBe(0)
    reading = startReading(line(pty.daemonPath))
    const r = reading
    await eventually("connected", () => (r.connectedCount() === 1 ? true : undefined))
    expect(fdsOn(device)).toBe(1)

    await r.stop()
    expect(fdsOn(device)).toBe(0)
    // Shutdown is not a lost link: nothing reports disconnected.
    expect(r.states.some((s) => s._tag === "disconnected")).toBe(false)
  })
})

describe("serialChunks watching the device path", () => {
  it("reopens when the path comes to name another device, even though the old port never reported a loss", async () => {
    const dir = tempDir("serial-path")
    const first = await startPtyPair(dir, "first")
    const second = await startPtyPair(dir, "second")
    // Like /dev/serial/by-id/…: a stable link the technician configures, here switched by hand.
    const link = join(dir, "by-id-adapter")
    symlinkSync(realpathSync(first.daemonPath), link)
    const reading = startReading(line(link))
    try {
      await eventually("connected to the first device", () => (reading.connectedCount() === 1 ? true : undefined))
      writeToPty(first.writerPath, Buffer.from("one"))
      await eventually("bytes from the first device", () => (reading.received().toString() === "one" ? true : undefined))
      // The first pty stays alive: serialport has nothing to report. Only the path changed.
      rmSync(link)
      symlinkSync(realpathSync(second.daemonPath), link)
      await eventually("reconnected to the second device", () => (reading.connectedCount() === 2 ? true : undefined), { timeoutMs: 4_000 })
      expect(reading.states.some((s) => s._tag === "disconnected" && s.reason.includes("another device"))).toBe(true)
      writeToPty(second.writerPath, Buffer.from("two"))
      await eventually("bytes from the second device", () => (reading.received().toString() === "onetwo" ? true : undefined))
    } finally {
      await reading.stop()
      await first.stop()
      await second.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
