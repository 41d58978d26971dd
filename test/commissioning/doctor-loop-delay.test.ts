import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { loopDelayCheck, loopDelayOutcome } from "../../src/commissioning/loop-delay-check.ts"
import { resources } from "../scoreboard/harness.ts"
import { get, startStatusDaemon, type StatusDaemon } from "../status/status-daemon.ts"
import { runCli } from "./support.ts"

const token = "doctor-loop-token-5b8e21"

/** A config that loads, whose status.listen is `listen`; its service refuses (only the event-loop line matters here). */
const configAt = async (dir: string, listen: string) =>
  writeConfig(join(dir, "doctor-loop.yaml"), daemonConfig({
    service: { baseUrl: `http://127.0.0.1:${await freePort()}`, token: { env: "SB_DOCTOR_TOKEN" } },
    stateDirectory: dir,
    status: { listen },
    places: [{ key: "court-1", sport: "basketball", scoreboard: { protocol: "daktronics-rtd", serial: { path: join(dir, "no-such-port") } } }]
  }))

const eventLoopLines = (stdout: string) => {
  const lines = stdout.split("\n")
  const index = lines.findIndex((line) => line.includes("event loop:"))
  expect(index, `an event loop line in:\n${stdout}`).toBeGreaterThanOrEqual(0)
  return { line: lines[index]!, next: lines[index + 1] ?? "" }
}

describe("scorebridge doctor: the running daemon's event loop", () => {
  const res = resources()
  let daemon: StatusDaemon
  let listen: string

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live"] })
    listen = new URL(daemon.url).host
  }, 20_000)
  afterAll(() => res.release())

  it("says how late the loop ran, from the daemon's /metrics, and warns of a stall over 50 ms", async () => {
    // The daemon runs in this process: holding this loop holds the daemon's, longer than its start-up did.
    const maxBefore = Number(/^scorebridge_event_loop_delay_seconds\{quantile="1"\} (\S+)$/mu.exec((await get(`${daemon.url}/metrics`)).body)?.[1])
    const stallMs = Math.max(120, maxBefore * 1000 + 80)
    const until = performance.now() + stallMs
    while (performance.now() < until) { /* held */ }

    const run = await runCli("doctor", ["--config", await configAt(tempDir("doctor-loop", res), listen)], { SB_DOCTOR_TOKEN: token })
    const { line, next } = eventLoopLines(run.stdout)
    const shown = /^\[WARN\] event loop: delay p99 [\d.]+ ms, max (\d+) ms over the (\d+) s since it started: over the 10 ms \(p99\) or 50 ms \(max\)/u.exec(line)
    expect(shown, line).not.toBeNull()
    expect(Number(shown![1])).toBeGreaterThanOrEqual(stallMs - 2)
    expect(Number(shown![1])).toBeLessThan(stallMs + 500)
    expect(next).toMatch(/^ {7}what to do: look for another program taking the CPU/u)
    expect(`${run.stdout}${run.stderr}`).not.toContain(token)
  }, 30_000)

  it("says the daemon is not running when nothing answers at status.listen (a skipped line, not a failure)", async () => {
    const outcome = await Effect.runPromise(loopDelayCheck(`127.0.0.1:${await freePort()}`))
    expect(outcome.status).toBe("skip")
    expect(outcome.line).toMatch(/^event loop: the daemon is not running \(nothing answers at 127\.0\.0\.1:\d+\), so its delay is not known$/u)
  })
})

describe("the event-loop line's wording", () => {
  const metrics = (p99: number, max: number, startedAtSeconds: number) =>
    `# TYPE scorebridge_start_time_seconds gauge\nscorebridge_start_time_seconds{venue="lyon"} ${startedAtSeconds}\n` +
    `# TYPE scorebridge_event_loop_delay_seconds gauge\n` +
    `scorebridge_event_loop_delay_seconds{venue="lyon",quantile="0.5"} 0.0002\n` +
    `scorebridge_event_loop_delay_seconds{venue="lyon",quantile="0.99"} ${p99}\n` +
    `scorebridge_event_loop_delay_seconds{venue="lyon",quantile="1"} ${max}\n`
  const now = 1_750_000_000_000

  it("within the targets: OK, over the last minute once the daemon has run a minute", () => {
    expect(loopDelayOutcome(metrics(0.0031, 0.012, now / 1000 - 3600), now)).toEqual({
      status: "ok",
      line: "event loop: delay p99 3.1 ms, max 12 ms over the last minute"
    })
  })

  it("p99 over 10 ms or max over 50 ms: a warning with what to do", () => {
    expect(loopDelayOutcome(metrics(0.011, 0.02, now / 1000 - 3600), now).status).toBe("warn")
    expect(loopDelayOutcome(metrics(0.002, 0.051, now / 1000 - 3600), now).status).toBe("warn")
    expect(loopDelayOutcome(metrics(0.01, 0.05, now / 1000 - 3600), now).status).toBe("ok")
  })

  it("a daemon that does not report it: skipped, saying so", () => {
    expect(loopDelayOutcome("# TYPE scorebridge_bridge_info gauge\nscorebridge_bridge_info{version=\"0.0.9\"} 1\n", now)).toMatchObject({ status: "skip" })
  })
})
