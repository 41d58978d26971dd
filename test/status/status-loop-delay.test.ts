import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { loopDelayResolutionMs } from "../../src/observability/loop-delay.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { get, startStatusDaemon, type StatusDaemon } from "./status-daemon.ts"

const name = "scorebridge_event_loop_delay_seconds"

const scrape = async (daemon: StatusDaemon) => {
  const text = (await get(`${daemon.url}/metrics`)).body
  return { text, metrics: parsePrometheus(text) }
}

/**
 * The event loop's delay on a real daemon's /metrics (in-process: the daemon's loop is this
 * test's, so the test can stall it). The figures are over the last whole minute; this test
 * runs within the daemon's first, where they are since the start.
 */
describe("/metrics: the event loop's delay", () => {
  const res = resources()
  let daemon: StatusDaemon

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live"], venue: "lyon-centre" })
  }, 20_000)
  afterAll(() => res.release())

  it("is a gauge by quantile (0.5, 0.99, 1), in seconds, its help naming the window", async () => {
    const { text, metrics } = await scrape(daemon)
    expect(metrics.get(name)?.type).toBe("gauge")
    expect(text).toMatch(new RegExp(`^# HELP ${name} .*over the last whole 60 s window`, "mu"))
    const quantiles = metrics.get(name)!.samples.map((sample) => sample.labels)
    expect(quantiles).toEqual(["0.5", "0.99", "1"].map((quantile) => ({ venue: "lyon-centre", quantile })))
    const [p50, p99, max] = ["0.5", "0.99", "1"].map((quantile) => valueOf(metrics, name, { quantile })!)
    expect(p50).toBeGreaterThanOrEqual(0)
    expect(p99).toBeGreaterThanOrEqual(p50!)
    expect(max).toBeGreaterThanOrEqual(p99!)
  })

  it("moves when the loop is held: a stall longer than any before shows as the max", async () => {
    // The daemon's start-up (in this process) may have held the loop already: stall longer than that.
    const before = valueOf((await scrape(daemon)).metrics, name, { quantile: "1" })!
    const stallMs = Math.max(120, before * 1000 + 80)
    const until = performance.now() + stallMs
    while (performance.now() < until) { /* the daemon's loop held, as a synchronous disk write would */ }
    const max = await eventually("the stall in the max", async () => {
      const value = valueOf((await scrape(daemon)).metrics, name, { quantile: "1" })!
      return value > before ? value : undefined
    })
    expect(max * 1000).toBeGreaterThanOrEqual(stallMs - loopDelayResolutionMs)
    expect(max * 1000).toBeLessThan(stallMs + 500)
  })
})
