import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { clockSkewLayer, clockSkewMs, skewLimitMs, skewNotice } from "../../src/delivery/clock-skew.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { type RunningSimulator, startSimulator } from "../../simulator/index.ts"
import { eventually } from "../../scripts/support/eventually.ts"

let sim: RunningSimulator | undefined
afterEach(async () => {
  await sim?.close()
  sim = undefined
})

/** One authenticated call against a simulator whose clock is `offsetMs` off, then skew checks until the log says `until`; returns the skew and the logs. */
const skewRun = async (offsetMs: number, until: (line: string) => boolean) => {
  sim = await startSimulator({ port: 0, requestsPerSecond: 100, clockOffsetMs: offsetMs })
  const logs: Array<string> = []
  const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
  const client = ServiceClient.layer({ baseUrl: sim.url, token: Redacted.make("demo-token") })
  const skew = await Effect.runPromise(Effect.gen(function*() {
    const service = yield* ServiceClient
    yield* service.sports
    const clock = yield* service.lastServerDate
    yield* Effect.promise(() => eventually("the skew check's line", () => logs.find(until)))
    return clockSkewMs(Option.getOrThrow(clock))
  }).pipe(
    Effect.provide(clockSkewLayer(100).pipe(Layer.provideMerge(client), Layer.provide(Logger.layer([collector])))),
    Effect.scoped
  ))
  return { skew, logs }
}

describe("clock skew against the service's Date header", () => {
  it("measures a service clock 5 s ahead and warns, naming NTP", async () => {
    const { skew, logs } = await skewRun(5_000, (l) => l.includes("clock is"))
    expect(skew).toBeGreaterThan(4_000)
    expect(skew).toBeLessThan(6_000)
    expect(logs.filter((l) => l.includes("clock is") && l.includes("behind") && l.includes("NTP"))).toHaveLength(1)
  })

  it("the clocks agree to within a second: measured so", async () => {
    sim = await startSimulator({ port: 0, requestsPerSecond: 100 })
    const client = ServiceClient.layer({ baseUrl: sim.url, token: Redacted.make("demo-token") })
    const skew = await Effect.runPromise(Effect.gen(function*() {
      const service = yield* ServiceClient
      yield* service.sports
      return clockSkewMs(Option.getOrThrow(yield* service.lastServerDate))
    }).pipe(Effect.provide(client)))
    expect(Math.abs(skew)).toBeLessThan(1_100)
  })
})

describe("what a skew check says", () => {
  it("nothing while the clocks agree, however often it looks", () => {
    let warned = false
    for (const skew of [0, 400, -1_500, skewLimitMs, -skewLimitMs]) {
      const notice = skewNotice(skew, warned)
      expect(notice).toEqual({ warned: false })
      warned = notice.warned
    }
  })

  it("warns once while the clock is off, and says when it agrees again", () => {
    const notices = [3_000, 3_500, -2_600, 200, 150].reduce<Array<ReturnType<typeof skewNotice>>>(
      (all, skew) => [...all, skewNotice(skew, all.at(-1)?.warned ?? false)],
      []
    )
    expect(notices.map((n) => n.warning === undefined ? undefined : n.warning.slice(0, 40))).toEqual([
      "this machine's clock is 3000 ms behind t", undefined, undefined, undefined, undefined
    ])
    expect(notices.map((n) => n.info)).toEqual([undefined, undefined, undefined, "clock agrees with the service again (200 ms)", undefined])
  })
})
