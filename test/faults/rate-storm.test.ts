import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { streamMatch } from "./support/match-streamer.ts"
import { long, scenarioTimeoutMs, suiteSeed } from "./support/mode.ts"
import { outboxStates } from "../support/outbox-file.ts"
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

const limit = 10
const stormMs = long ? 60_000 : 4_000

/** The most requests in any 1000 ms window starting at a request. */
const busiestSecond = (times: ReadonlyArray<number>): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  let start = 0
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1_000) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

describe("a 429 storm while a match streams faster than the rate limit allows", () => {
  it(`${stormMs} ms of 429s: nothing dropped, and afterwards at most ${limit} requests in any second`, async () => {
    const seed = suiteSeed("rate-storm")
    world = await startWorld("rate-storm", { requestsPerSecond: limit })
    const { control } = world
    // ~12 entries a second against 10 requests a second: a backlog builds and must drain at the limit.
    const match = streamMatch(world.pty.writerPath, seed, 40)
    const presser = pressEvery(world.publisher, 500, [await primeSession(world)])
    match.resume()
    const result = figures()

    await sleep(1_000)
    await control.injectFault({ kind: "status", status: 429, durationMs: stormMs })
    await sleep(stormMs)
    const stormEnded = Date.now()
    result.faultsInjected = (await control.requests({ status: 429 })).length
    expect(result.faultsInjected, "429s answered during the storm").toBeGreaterThanOrEqual(2)

    // Wait for the backlog to drain at the limit, then measure the whole drain.
    await match.finished
    await eventually("the backlog to drain", () => ((outboxStates(world!.stateDirectory)["pending"] ?? 0) === 0 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 250
    })
    const after = (await control.requests()).filter((r) => r.at >= stormEnded + 1_000)
    const busiest = busiestSecond(after.map((r) => r.at))
    const refusedAfter = after.filter((r) => r.status === 429).length
    result.runs = 1
    result.notes = `seed ${seed}; ${after.length} requests after the storm, busiest second ${busiest} (limit ${limit}), ${refusedAfter} refused by the service's own limiter`
    expect(after.length, "requests after the storm (the backlog)").toBeGreaterThan(limit)
    expect(busiest, "requests in the busiest second after the storm").toBeLessThanOrEqual(limit)
    await settleAndCheck("rate-storm", world, match, presser, [], result)
  }, scenarioTimeoutMs)
})
