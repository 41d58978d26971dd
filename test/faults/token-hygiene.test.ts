import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { outboxStates } from "../support/outbox-file.ts"
import { primeSession } from "./support/presses.ts"
import { figures, recordFigures } from "./support/summary.ts"
import { statusOutputs, tokenLeaks } from "./support/token-scan.ts"
import { startWorld, type World } from "./support/world.ts"

let world: World | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
})

/**
 * Every scenario of the suite scans its own daemon's output for its token when it settles
 * (settle.ts); this one provokes what is most likely to carry a token into text: a rejected
 * token (401), refused entries whose error is stored in the outbox (400), timeouts, resets,
 * and a kill, then reads everything — all log output of every run, the status page, its
 * JSON and metrics, the outbox file and its WAL byte by byte.
 */
describe("token hygiene", () => {
  it("after 401s, stored 400 errors, timeouts, resets and a kill, the token is nowhere the daemon wrote", async () => {
    world = await startWorld("token-hygiene", { timeoutMs: 1_000 })
    const { control, daemon } = world
    await primeSession(world)
    await control.injectFault({ kind: "status", status: 400, count: 2, pathPrefix: "/public/events" })
    await control.injectFault({ kind: "status", status: 401, count: 2 })
    await control.injectFault({ kind: "hang", count: 2 })
    await control.injectFault({ kind: "reset", count: 2 })
    for (let n = 0; n < 8; n++) await world.publisher.publishAsync("zigbee2mqtt/faults-remote", JSON.stringify({ action: "single" }), { qos: 1 })
    await eventually("the faults to be used up", async () =>
      (await control.requests()).filter((r) => r.fault !== undefined).length >= 8 ? true : undefined, { timeoutMs: 60_000, intervalMs: 250 })
    const statusWhileRunning = await statusOutputs(world.statusUrl)
    await daemon.kill9()
    daemon.start()
    await daemon.waitForLog(/MQTT connected/, { from: 0 })
    await eventually("the outbox to settle", () => ((outboxStates(world!.stateDirectory)["pending"] ?? 0) === 0 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 250
    })
    const leaks = tokenLeaks(world.dir, world.token, { ...statusWhileRunning, ...(await statusOutputs(world.statusUrl)) })
    const answered = Object.values(statusWhileRunning).filter((text) => text !== "").length
    recordFigures("token-hygiene", {
      ...figures(),
      runs: 2,
      faultsInjected: (await control.requests()).filter((r) => r.fault !== undefined).length,
      crashes: daemon.crashes(),
      notes: `${leaks.length} leaks; ${answered} status endpoints answered; ${daemon.logs().length} log lines scanned`
    })
    expect(leaks).toEqual([])
    // The scan read what it claims to have read: logs with the failures in them.
    expect(daemon.logs().some((l) => /401|rejected|timed out|reset/i.test(l.msg)), daemon.tail()).toBe(true)
  }, 120_000)
})
