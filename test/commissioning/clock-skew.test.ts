import { describe, expect, it } from "vitest"
import { certainSkewMs, clockOutcome } from "../../src/commissioning/clock-skew.ts"

// The service's Date header: whole seconds, stamped somewhere during the round trip.
const at = (serverDate: number, localDate: number, latencyMs = 40) => ({ serverDate, localDate, latencyMs })

describe("clock skew", () => {
  it("counts no skew while the header's second and the round trip can explain the difference", () => {
    expect(certainSkewMs(at(10_000, 10_999))).toBe(0)
    expect(certainSkewMs(at(10_000, 11_030, 40))).toBe(0)
    expect(certainSkewMs(at(10_000, 10_000))).toBe(0)
  })

  it("measures only what lies beyond the header's resolution and the latency", () => {
    expect(certainSkewMs(at(10_000, 14_540, 40))).toBe(3_500)
    expect(certainSkewMs(at(10_000, 7_000))).toBe(-3_000)
  })

  it("passes within 2 s and warns beyond, saying which way and how to fix it", () => {
    expect(clockOutcome(at(10_000, 12_900)).status).toBe("ok")
    const ahead = clockOutcome(at(10_000, 14_540))
    expect(ahead).toMatchObject({ status: "warn", line: "clock: 3.5 s ahead of the service's" })
    expect(ahead.advice).toMatch(/timedatectl set-ntp true/u)
    expect(clockOutcome(at(10_000, 7_000)).line).toBe("clock: 3.0 s behind the service's")
  })
})
