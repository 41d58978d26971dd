import { describe, expect, it } from "vitest"
import { edgeTime, makeLocalClock, maxEdgeAgeMs, maxMappedLagMs } from "../../src/buttons/edge-time.ts"

const now = 1_700_000_000_000

describe("edgeTime", () => {
  it("believes a wall-clock source time up to maxEdgeAgeMs old", () => {
    expect(edgeTime(now - 250, now)).toBe(now - 250)
    expect(edgeTime(now - maxEdgeAgeMs, now)).toBe(now - maxEdgeAgeMs)
  })

  it("takes the receive time for a missing, unset, too old or future source time", () => {
    expect(edgeTime(undefined, now)).toBe(now)
    expect(edgeTime(12_500, now)).toBe(now)
    expect(edgeTime(now - maxEdgeAgeMs - 1, now)).toBe(now)
    expect(edgeTime(now + 1500, now)).toBe(now)
    expect(edgeTime(Number.NaN, now)).toBe(now)
  })
})

describe("makeLocalClock", () => {
  const boot = 3_600_000 // monotonic ms since boot

  it("maps a monotonic clock by the least delayed delivery, keeping edge spacing", () => {
    const clock = makeLocalClock()
    expect(clock([boot], now + 4)).toEqual([now + 4]) // first: delivered 4 ms late, best guess so far
    expect(clock([boot + 1000], now + 1001)).toEqual([now + 1001]) // 1 ms late: better offset learnt
    // Two edges in one read keep their 30 ms spacing on the best offset.
    expect(clock([boot + 2000, boot + 2030], now + 2040)).toEqual([now + 2001, now + 2031])
  })

  it("learns from the newest edge of a read, however old the first one is", () => {
    const clock = makeLocalClock()
    expect(clock([boot, boot + 1500, boot + 1600], now)).toEqual([now - 1600, now - 100, now])
  })

  it("learns again after the wall clock is stepped", () => {
    const clock = makeLocalClock()
    clock([boot], now)
    const first = now + 60_000 + 100 + maxMappedLagMs + 1
    expect(clock([boot + 100], first)).toEqual([first])
    // The next edge, 100 ms later by the source, keeps that spacing on the new offset.
    expect(clock([boot + 200], first + 150)).toEqual([first + 100])
  })

  it("passes wall-clock times through edgeTime", () => {
    const clock = makeLocalClock()
    expect(clock([now - 20, Number.NaN, now + 5000], now)).toEqual([now - 20, now, now])
  })
})
