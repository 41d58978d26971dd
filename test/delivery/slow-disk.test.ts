import { describe, expect, it } from "vitest"
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
