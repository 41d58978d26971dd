import { afterEach, describe, expect, it } from "vitest"
import type { Fault } from "../../simulator/control-client.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { streamMatch } from "./support/match-streamer.ts"
import { long, scenarioTimeoutMs, sizes, suiteSeed } from "./support/mode.ts"
import { pressEvery, primeSession } from "./support/presses.ts"
import { settleAndCheck } from "./support/settle.ts"
import { figures } from "./support/summary.ts"
import { startWorld, type World } from "./support/world.ts"
import { sleep } from "../support/sleep.ts"

let world: World | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
})

/**
 * Each outage while the match streams and presses arrive. Hanging requests outlast the
 * daemon's 2 s timeout, and resets after the service applied the request leave it in doubt:
 * both are answered by reading the event back, not by sending again blindly.
 */
const outages: ReadonlyArray<{ readonly name: string; readonly fault?: Fault; readonly ms: number }> = [
  { name: "connection refused (service down)", ms: sizes.outageMs },
  { name: "503", fault: { kind: "status", status: 503, durationMs: sizes.outageMs }, ms: sizes.outageMs },
  { name: "hanging requests", fault: { kind: "hang", durationMs: sizes.outageMs }, ms: sizes.outageMs },
  { name: "connection resets", fault: { kind: "reset", count: long ? 40 : 6 }, ms: 1_500 },
  { name: "resets after the service applied the request", fault: { kind: "reset-after-apply", count: long ? 40 : 6 }, ms: 1_500 }
]

/** How long an outage waits for the daemon's next request to meet its fault. */
const hitWaitMs = 30_000

describe("outages of the service while a match streams and presses arrive", () => {
  it(`${outages.map((o) => o.name).join(", ")}: everything delivered once afterwards, stamps original, nothing in another event`, async () => {
    const seed = suiteSeed("outages")
    world = await startWorld("outages")
    const { control, daemon, proxy } = world
    const totalMs = outages.reduce((sum, o) => sum + o.ms + 1_500, 0)
    // Paced so the set spans every outage and a little after.
    const match = streamMatch(world.pty.writerPath, seed, Math.max(60, Math.round(totalMs / 150)))
    const presser = pressEvery(world.publisher, 400, [await primeSession(world)])
    match.resume()
    const result = figures()
    const injected: Array<string> = []

    for (const outage of outages) {
      await sleep(1_500)
      if (outage.fault === undefined) {
        await proxy.close()
        await sleep(outage.ms)
        await proxy.open()
      } else {
        const kind = outage.fault.kind
        const before = (await control.requests()).filter((r) => r.fault === kind).length
        // The daemon may be backing off from the previous outage (its retries grow to 8 s and
        // more): a timed fault lasts until a request has met it, then it is cleared.
        const { durationMs } = outage.fault
        await control.injectFault(durationMs === undefined ? outage.fault : { ...outage.fault, durationMs: durationMs + hitWaitMs })
        await sleep(outage.ms)
        await eventually(`a request hit by ${kind}`, async () =>
          (await control.requests()).filter((r) => r.fault === kind).length > before ? true : undefined, { timeoutMs: hitWaitMs, intervalMs: 200 })
        await control.clearFaults()
      }
      injected.push(`${outage.name} ${outage.ms} ms`)
      result.faultsInjected++
    }
    const faulted = await control.requests()
    // The faults did hit the daemon's requests (a scenario that injected nothing proves nothing).
    for (const kind of ["hang", "reset", "reset-after-apply"] as const) {
      expect(faulted.filter((r) => r.fault === kind).length, `requests hit by ${kind}`).toBeGreaterThan(0)
    }
    expect(faulted.filter((r) => r.status === 503).length).toBeGreaterThan(0)
    expect(daemon.logs().some((l) => /refused|ECONNREFUSED|unreachable/i.test(l.msg)), "the refused connections were seen").toBe(true)

    result.runs = 1
    result.notes = `seed ${seed}; ${injected.join(", ")}`
    await settleAndCheck("outages", world, match, presser, [], result, long ? 180_000 : 60_000)
  }, scenarioTimeoutMs)
})
