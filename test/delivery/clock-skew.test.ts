import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { clockSkewLayer, clockSkewMs } from "../../src/delivery/clock-skew.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { type RunningSimulator, startSimulator } from "../../simulator/index.ts"

let sim: RunningSimulator | undefined
afterEach(async () => {
  await sim?.close()
  sim = undefined
})

/** One authenticated call against a simulator whose clock is `offsetMs` off, then a few skew checks; returns the skew and the logs. */
const skewRun = async (offsetMs: number) => {
  sim = await startSimulator({ port: 0, requestsPerSecond: 100, clockOffsetMs: offsetMs })
  const logs: Array<string> = []
  const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
  const client = ServiceClient.layer({ baseUrl: sim.url, token: Redacted.make("demo-token") })
  const skew = await Effect.runPromise(Effect.gen(function*() {
    const service = yield* ServiceClient
    yield* service.sports
    const clock = yield* service.lastServerDate
    yield* Effect.sleep(250)
    return clockSkewMs(Option.getOrThrow(clock))
  }).pipe(
    Effect.provide(clockSkewLayer(100).pipe(Layer.provideMerge(client), Layer.provide(Logger.layer([collector])))),
    Effect.scoped
  ))
  return { skew, logs }
}

describe("clock skew against the service's Date header", () => {
  it("measures a service clock 5 s ahead and warns, naming NTP", async () => {
    const { skew, logs } = await skewRun(5_000)
    expect(skew).toBeGreaterThan(4_000)
    expect(skew).toBeLessThan(6_000)
    expect(logs.filter((l) => l.includes("clock is") && l.includes("behind") && l.includes("NTP"))).toHaveLength(1)
  })

  it("stays quiet when the clocks agree", async () => {
    const { skew, logs } = await skewRun(0)
    expect(Math.abs(skew)).toBeLessThan(1_100)
    expect(logs.filter((l) => l.includes("clock is"))).toEqual([])
  })
})
