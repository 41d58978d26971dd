import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { genericEntry, startDelivery } from "./delivery-harness.ts"

/**
 * The scheduler with the real outbox, deliverer and client against the simulator: what only the
 * real parts judge (the simulator's own rate limiter, the token probe's real call). Its rules
 * (lanes, priorities, back-offs, 429, 401) are tested on virtual time in scheduler-core.test.ts.
 */
type Delivery = Awaited<ReturnType<typeof startDelivery>>
let delivery: Delivery | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

const scorePosts = async (d: Delivery) =>
  (await d.control.requests()).filter((r) => r.method === "POST" && r.path.endsWith("/score"))

describe("scheduler against the simulator's rate limit", () => {
  it("drains a 30-entry backlog of two places in order without a single 429", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    const base = Date.now()
    for (let i = 0; i < 30; i++) await d.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await eventually("30 deliveries", async () => ((await scorePosts(d)).filter((r) => r.status === 200).length === 30 ? true : undefined), { timeoutMs: 25_000, intervalMs: 50 })
    const requests = await d.control.requests()
    expect(requests.filter((r) => r.status === 429)).toEqual([])
    // Per place, the service saw the entries in capture order.
    for (const place of ["court-1", "court-2"]) {
      const stamps = requests.filter((r) => r.path.includes(place)).map((r) => (r.body as { timeStamp: number }).timeStamp)
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
      expect(stamps).toHaveLength(15)
    }
    // And no two requests closer than the limit allows (5/s → 200 ms; the simulator grants 2% grace).
    const gaps = requests.slice(1).map((r, i) => r.at - requests[i]!.at)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(196)
  }, 40_000)
})

describe("scheduler under service failures", () => {
  it("pauses every lane on a 401, probes the token, and resumes when it works again", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "status", status: 401, count: 1, pathPrefix: "/public/places" })
    const base = Date.now()
    for (let i = 0; i < 4; i++) await d.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await eventually("4 deliveries after the probe", async () => ((await scorePosts(d)).filter((r) => r.status === 200).length === 4 ? true : undefined), { timeoutMs: 20_000, intervalMs: 50 })
    const requests = await d.control.requests()
    const rejected = requests.findIndex((r) => r.status === 401)
    const probe = requests.findIndex((r) => r.path === "/public/sports")
    // While suspended only the probe went out; it came after the 401 and before any other score.
    expect(rejected).toBeGreaterThanOrEqual(0)
    expect(probe).toBeGreaterThan(rejected)
    expect(requests.slice(rejected + 1, probe).filter((r) => r.path.endsWith("/score"))).toEqual([])
    expect(requests[probe]!.status).toBe(200)
  }, 30_000)
})
