import { Effect, Logger } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { slowDiskReporter } from "../../src/delivery/slow-disk.ts"

describe("slowDiskReporter", () => {
  const file = "/var/lib/scorebridge/outbox.sqlite"

  it("stays quiet for writes within the threshold", () => {
    const report = slowDiskReporter(file, { thresholdMs: 100, everyMs: 60_000 })
    expect([2, 40, 100].map((ms, i) => report(ms, i * 1000))).toEqual([undefined, undefined, undefined])
  })

  it("reports the first slow write at once, naming the file and the time", () => {
    const report = slowDiskReporter(file, { thresholdMs: 100, everyMs: 60_000 })
    expect(report(419.4, 1_000)).toBe(`writing the outbox (${file}) took 419 ms: the disk is slow, and presses and score changes wait for it`)
  })

  it("then at most once per interval, with the count and the slowest since the last report", () => {
    const report = slowDiskReporter(file, { thresholdMs: 100, everyMs: 60_000 })
    report(150, 0)
    expect(report(300, 10_000)).toBeUndefined()
    expect(report(120, 30_000)).toBeUndefined()
    expect(report(5, 59_000)).toBeUndefined()
    expect(report(180, 60_000)).toBe(
      `3 outbox writes (${file}) took over 100 ms since the last report, the slowest 300 ms: the disk is slow, and presses and score changes wait for it`
    )
    // Counting starts again after a report.
    expect(report(110, 200_000)).toBe(`writing the outbox (${file}) took 110 ms: the disk is slow, and presses and score changes wait for it`)
  })
})

describe("the outbox on a disk that holds its writes", () => {
  it("logs the slow write, naming the file and how long it took", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scorebridge-slow-write-"))
    const logs: Array<string> = []
    const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
    try {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* outbox.append({ place: "court-1", kind: "score", payload: { n: 1 }, createdAt: 1 })
        expect(logs).toEqual([])
        // Another process holds the write lock for 400 ms: to the outbox that is a write the disk held up.
        const holder = spawn("python3", ["-c", [
          "import sqlite3, sys, time",
          "c = sqlite3.connect(sys.argv[1], isolation_level=None)",
          "c.execute('BEGIN IMMEDIATE')",
          "print('locked', flush=True)",
          "time.sleep(0.4)",
          "c.execute('COMMIT')"
        ].join("\n"), join(dir, "outbox.sqlite")], { stdio: ["ignore", "pipe", "inherit"] })
        yield* Effect.promise(() => new Promise<void>((resolve) => holder.stdout.once("data", () => resolve())))
        yield* outbox.append({ place: "court-1", kind: "score", payload: { n: 2 }, createdAt: 2 })
        yield* Effect.promise(() => new Promise((resolve) => holder.once("exit", resolve)))
      }).pipe(Effect.provide(Outbox.layer({ stateDirectory: dir })), Effect.provide(Logger.layer([collector])))))
      expect(logs).toHaveLength(1)
      expect(logs[0]).toMatch(new RegExp(`^writing the outbox \\(${join(dir, "outbox.sqlite")}\\) took \\d{3} ms: the disk is slow`))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 20_000)
})
