import { spawn } from "node:child_process"
import { closeSync, fdatasync, fsync, fsyncSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { mountSlowDisk, type SlowDisk, slowDiskSkipped, slowDiskUnavailable } from "../../scripts/support/slow-disk.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

// The bench and the stalled-write/power-cut tests rely on this fixture: prove it with real I/O.
const unavailable = slowDiskUnavailable()
if (unavailable !== undefined) {
  // Locally the test may be skipped; in CI a missing FUSE is a failure, never a silent skip
  // (unless SCOREBRIDGE_WITHOUT_FUSE=1 opted out).
  if (!slowDiskSkipped()) throw new Error(unavailable)
  console.warn(`SKIPPED: ${unavailable}`)
}

const delayMs = 300
const root = tempDir("slow-disk-test")
let disks: Array<SlowDisk> = []

const mount = async (
  options: { readonly fsyncDelayMs?: number; readonly lazy?: boolean; readonly device?: "block" | "fuse" } = {}
): Promise<SlowDisk> => {
  const disk = await mountSlowDisk({ directory: mkdtempSync(join(root, "disk-")), device: "fuse", ...options })
  disks.push(disk)
  return disk
}

afterEach(async () => {
  await Promise.all(disks.map((disk) => disk.unmount()))
  disks = []
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

const timed = async (work: () => unknown): Promise<number> => {
  const started = performance.now()
  await work()
  return performance.now() - started
}

const fsyncAsync = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => fsync(fd, (error) => (error === null ? resolve() : reject(error))))
const fdatasyncAsync = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => fdatasync(fd, (error) => (error === null ? resolve() : reject(error))))

/**
 * The file through a fresh descriptor (a handle opened before a power cut may still show page-cache
 * bytes), as runs: "A10 C1 A4989" keeps a failure message short.
 */
const contents = (file: string): string =>
  (readFileSync(file, "latin1").match(/(.)\1*/gs) ?? []).map((run) => `${run[0] === "\0" ? "0x00" : run[0]}${run.length}`).join(" ")

describe.skipIf(slowDiskSkipped())("the slow disk (FUSE)", () => {
  it("delays every fsync by the set delay, and not at all with delay 0", async () => {
    const disk = await mount({ fsyncDelayMs: delayMs })
    const fd = openSync(join(disk.path, "file"), "w")
    try {
      writeSync(fd, "hello")
      expect(await timed(() => fsyncSync(fd))).toBeGreaterThanOrEqual(delayMs)
      disk.setFsyncDelay(0)
      writeSync(fd, " world")
      expect(await timed(() => fsyncSync(fd))).toBeLessThan(delayMs / 2)
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(join(disk.path, "..", "backing", "file"), "utf8")).toBe("hello world")

    const logged = disk.fsyncs()
    expect(logged.map((f) => f.path)).toEqual(["/file", "/file"])
    expect(logged[0]!.endedAt - logged[0]!.startedAt).toBeGreaterThanOrEqual(delayMs - 1)
    expect(logged[0]!.endedAt - logged[0]!.startedAt).toBeLessThan(delayMs + 200)
    expect(logged[1]!.endedAt - logged[1]!.startedAt).toBeLessThan(delayMs / 2)
  })

  it("runs concurrent fsyncs of different files in parallel, like latency per request", async () => {
    const disk = await mount({ fsyncDelayMs: delayMs })
    const fds = ["a", "b"].map((name) => openSync(join(disk.path, name), "w"))
    try {
      for (const fd of fds) writeSync(fd, "x")
      const elapsed = await timed(() => Promise.all(fds.map(fsyncAsync)))
      expect(elapsed).toBeGreaterThanOrEqual(delayMs)
      expect(elapsed).toBeLessThan(2 * delayMs)
    } finally {
      for (const fd of fds) closeSync(fd)
    }
    expect(disk.fsyncs().map((f) => f.path).sort()).toEqual(["/a", "/b"])
  })

  it("holds a WAL SQLite database, whose commit waits for the slow fsync", async () => {
    const disk = await mount()
    const db = new DatabaseSync(join(disk.path, "test.sqlite"))
    try {
      db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (n INTEGER)")
      db.prepare("INSERT INTO t VALUES (?)").run(1)
      disk.setFsyncDelay(delayMs)
      expect(await timed(() => db.prepare("INSERT INTO t VALUES (?)").run(2))).toBeGreaterThanOrEqual(delayMs)
      disk.setFsyncDelay(0) // close() checkpoints: two more fsyncs
      expect(db.prepare("SELECT n FROM t ORDER BY n").all().map((r) => r["n"])).toEqual([1, 2])
    } finally {
      db.close()
    }
    const slow = disk.fsyncs().filter((f) => f.endedAt - f.startedAt >= delayMs)
    expect(slow.map((f) => f.path)).toContain("/test.sqlite-wal")
  })

  it("fails every fsync with EIO while failing is on, and syncs again once it is off", async () => {
    const disk = await mount()
    const fd = openSync(join(disk.path, "file"), "w")
    try {
      writeSync(fd, "kept?")
      disk.setFsyncFailing(true)
      // Async, as the daemon's outbox calls it: the error must come through libuv's thread pool too.
      await expect(fdatasyncAsync(fd)).rejects.toMatchObject({ code: "EIO" })
      expect(() => fsyncSync(fd)).toThrow(expect.objectContaining({ code: "EIO" }))
      disk.setFsyncFailing(false)
      writeSync(fd, " yes")
      await fdatasyncAsync(fd)
    } finally {
      closeSync(fd)
    }
    expect(disk.fsyncs().map((f) => [f.path, f.failed ?? false])).toEqual([["/file", true], ["/file", true], ["/file", false]])
  })

  it("block mode: ext4 over a slow loop device, where an fdatasync takes the delay and a write beside it does not wait", async () => {
    const disk = await mount({ device: "block", fsyncDelayMs: 2 * delayMs })
    const fd = openSync(join(disk.path, "log"), "a")
    try {
      writeSync(fd, Buffer.alloc(8192, 1))
      const writes: Array<number> = []
      const syncing = timed(() => new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e === null ? resolve() : reject(e)))))
      // Appends while the fdatasync is in flight: on the bare FUSE mount each would wait for it.
      for (let i = 0; i < 20; i++) {
        writes.push(await timed(() => writeSync(fd, Buffer.alloc(4120, 2))))
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(await syncing).toBeGreaterThanOrEqual(2 * delayMs)
      expect(Math.max(...writes)).toBeLessThan(50)
    } finally {
      closeSync(fd)
    }
    expect(disk.fsyncs().filter((f) => f.path === "/disk.img").length).toBeGreaterThan(0)
  })

  it("lazy: a power cut loses the writes not yet fsynced, keeps the fsynced ones", async () => {
    const disk = await mount({ lazy: true })
    const file = join(disk.path, "file")
    const fd = openSync(file, "w")
    writeSync(fd, "A".repeat(5000))
    fsyncSync(fd)
    writeSync(fd, "B".repeat(5000))
    writeSync(fd, "C", 10)
    closeSync(fd)
    expect(contents(file)).toBe("A10 C1 A4989 B5000")

    await disk.powerCut()
    expect(contents(file)).toBe("A5000")
  })

  it("lazy: truncates not yet fsynced are undone by a power cut", async () => {
    const disk = await mount({ lazy: true })
    const file = join(disk.path, "file")
    const fd = openSync(file, "w")
    writeSync(fd, "0011223344")
    fsyncSync(fd)
    // Shrink then grow again: the bytes cut off read as zeros, they do not come back from the backing file.
    ftruncateSync(fd, 2)
    ftruncateSync(fd, 6)
    writeSync(fd, "z", 8)
    closeSync(fd)
    expect(contents(file)).toBe("02 0x006 z1")
    closeSync(openSync(file, "w")) // O_TRUNC
    expect(contents(file)).toBe("")

    await disk.powerCut()
    expect(contents(file)).toBe("02 12 22 32 42")
  })

  it("lazy: a SQLite WAL database killed mid-life keeps its synced commit and loses the unsynced one", async () => {
    const disk = await mount({ lazy: true })
    const file = join(disk.path, "test.sqlite")
    // A child holds the database and is SIGKILLed: no close, no checkpoint, like a crash.
    const child = spawn(process.execPath, [
      "-e",
      `const { DatabaseSync } = require("node:sqlite")
       const db = new DatabaseSync(${JSON.stringify(file)})
       db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (n INTEGER)")
       db.exec("INSERT INTO t VALUES (1)")
       db.exec("PRAGMA synchronous = OFF")
       db.exec("INSERT INTO t VALUES (2)")
       console.log(JSON.stringify(db.prepare("SELECT n FROM t ORDER BY n").all().map((r) => r.n)))
       setInterval(() => {}, 1000)`
    ], { stdio: ["ignore", "pipe", "inherit"] })
    const rows = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (data: Buffer) => resolve(data.toString().trim()))
      child.once("exit", (code) => reject(new Error(`the writer exited early (${code})`)))
    })
    expect(rows).toBe("[1,2]")
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGKILL")
    await exited

    await disk.powerCut()
    const db = new DatabaseSync(file)
    try {
      expect(db.prepare("SELECT n FROM t ORDER BY n").all().map((r) => r["n"])).toEqual([1])
      expect(db.prepare("PRAGMA quick_check").get()?.["quick_check"]).toBe("ok")
    } finally {
      db.close()
    }
    expect(disk.fsyncs().map((f) => f.path)).toContain("/test.sqlite-wal")
  })
})
