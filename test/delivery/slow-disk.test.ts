import { Effect, Logger } from "effect"
import { spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { slowCommitReporter, slowSyncReporter } from "../../src/delivery/slow-disk.ts"
import { scorePayload } from "../support/outbox-payloads.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

describe("the slow-disk warnings", () => {
  const file = "/var/lib/scorebridge/outbox.sqlite"

  const stored = "the disk is slow; clicks and score entries leave only once stored, stamps are not delayed"

  it("stay quiet for fsyncs within the threshold", () => {
    const report = slowSyncReporter(file)
    expect([2, 40, 100].map((ms, i) => report(ms, i * 1000))).toEqual([undefined, undefined, undefined])
  })

  it("report the first slow fsync at once, naming the file, the time and what waits for it", () => {
    const report = slowSyncReporter(file)
    expect(report(419.4, 1_000)).toBe(`storing outbox writes on disk (${file}) took 419 ms: ${stored}`)
  })

  it("tell a commit held on the event loop apart: there, presses and frames wait", () => {
    expect(slowCommitReporter(file)(250, 0)).toBe(
      `writing the outbox (${file}) took 250 ms on the event loop: another program holds its lock, or the disk is very slow; presses and frames wait for it`
    )
  })

  it("then at most once per interval, with the count and the slowest since the last report", () => {
    const report = slowSyncReporter(file)
    report(150, 0)
    expect(report(300, 10_000)).toBeUndefined()
    expect(report(120, 30_000)).toBeUndefined()
    expect(report(5, 59_000)).toBeUndefined()
    expect(report(180, 60_000)).toBe(
      `3 fsyncs of the outbox (${file}) took over 100 ms since the last report, the slowest 300 ms: ${stored}`
    )
    // Counting starts again after a report.
    expect(report(110, 200_000)).toBe(`storing outbox writes on disk (${file}) took 110 ms: ${stored}`)
  })
})

describe("the outbox when another program holds its lock", () => {
  it("logs the commit the event loop waited for, naming the file and how long it took", async () => {
    const dir = tempDir("slow-write")
    const logs: Array<string> = []
    const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
    try {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const outbox = yield* wholeOutbox
        yield* outbox.append({ place: "court-1", kind: "score", payload: scorePayload(1), createdAt: 1 })
        expect(logs).toEqual([])
        // Another process holds the write lock for 400 ms: the commit waits for it on the event loop.
        const holder = spawn("python3", ["-c", [
          "import sqlite3, sys, time",
          "c = sqlite3.connect(sys.argv[1], isolation_level=None)",
          "c.execute('BEGIN IMMEDIATE')",
          "print('locked', flush=True)",
          "time.sleep(0.4)",
          "c.execute('COMMIT')"
        ].join("\n"), join(dir, "outbox.sqlite")], { stdio: ["ignore", "pipe", "inherit"] })
        // Listened for from the start: the holder may be gone by the time the append returns.
        const exited = new Promise((resolve) => holder.once("exit", resolve))
        yield* Effect.promise(() => new Promise<void>((resolve) => holder.stdout.once("data", () => resolve())))
        yield* outbox.append({ place: "court-1", kind: "score", payload: scorePayload(2), createdAt: 2 })
        yield* Effect.promise(() => exited)
      }).pipe(Effect.provide(Outbox.layer({ stateDirectory: dir })), Effect.provide(Logger.layer([collector])))))
      expect(logs).toHaveLength(1)
      expect(logs[0]).toMatch(new RegExp(`^writing the outbox \\(${join(dir, "outbox.sqlite")}\\) took \\d{3} ms on the event loop`))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 20_000)
})
