import { Duration, Effect, Schedule } from "effect"
import { describe, expect, it } from "vitest"
import { reconnectSchedule } from "./reconnect-schedule.ts"

const delays = (count: number): Promise<Array<number>> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const step = yield* Schedule.toStep(reconnectSchedule)
      const out: Array<number> = []
      for (let i = 0; i < count; i++) {
        const [, delay] = yield* Effect.orDie(step(i * 1_000, undefined))
        out.push(Duration.toMillis(delay))
      }
      return out
    })
  )

describe("reconnectSchedule", () => {
  it("starts near 250 ms, grows, and never waits more than 1.8 s however long it runs", async () => {
    const waits = await delays(200)
    expect(waits[0]).toBeGreaterThanOrEqual(200)
    expect(waits[0]).toBeLessThanOrEqual(300)
    expect(waits[2]).toBeGreaterThan(waits[0]!)
    expect(Math.max(...waits)).toBeLessThanOrEqual(1_800)
    expect(Math.min(...waits.slice(10))).toBeGreaterThanOrEqual(1_200)
  })

  it("is jittered, so ports that dropped together do not retry in lockstep", async () => {
    const [a, b] = await Promise.all([delays(8), delays(8)])
    expect(a).not.toEqual(b)
  })
})
