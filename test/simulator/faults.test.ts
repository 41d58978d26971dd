import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { startHarness, tennisEntry, type Harness } from "./support.ts"

let h: Harness
afterEach(async () => { await h.close() })

const scoreCount = async () => (await h.control.state()).events[0]?.scoreStream.length ?? 0
const sendScore = () => h.call("POST", "/public/places/court-1/score", tennisEntry(Date.now()))

describe("faults", () => {
  it("status: answers the status for `count` matching requests without applying them", async () => {
    h = await startHarness()
    await h.control.startEvent("court-1")
    await h.control.injectFault({ kind: "status", status: 503, count: 2, pathPrefix: "/public/places/" })
    expect((await h.call("GET", "/public/sports")).status).toBe(200) // other paths are untouched
    expect((await sendScore()).status).toBe(503)
    expect((await sendScore()).status).toBe(503)
    expect(await scoreCount()).toBe(0)
    expect((await sendScore()).status).toBe(200)
    expect(await scoreCount()).toBe(1)
    const faulted = await h.control.requests({ status: 503 })
    expect(faulted.map((r) => r.fault)).toEqual(["status", "status"])
  })

  it("status 429: answers like the real rate limit", async () => {
    h = await startHarness()
    await h.control.injectFault({ kind: "status", status: 429 })
    expect(await h.call("GET", "/public/sports")).toMatchObject({ status: 429, body: { error: "rate limit exceeded" } })
  })

  it("reset: drops the connection before applying the request", async () => {
    h = await startHarness()
    await h.control.startEvent("court-1")
    await h.control.injectFault({ kind: "reset" })
    await expect(sendScore()).rejects.toThrow()
    expect(await scoreCount()).toBe(0)
    expect((await h.control.requests())[0]).toMatchObject({ status: null, fault: "reset", organization: "org-a" })
    expect((await sendScore()).status).toBe(200) // one request only by default
  })

  it("reset-after-apply: applies the request, then drops the connection", async () => {
    h = await startHarness()
    await h.control.startEvent("court-1")
    await h.control.injectFault({ kind: "reset-after-apply", count: 1 })
    await expect(sendScore()).rejects.toThrow()
    expect(await scoreCount()).toBe(1)
    expect((await h.control.requests())[0]).toMatchObject({ status: 200, fault: "reset-after-apply" })
  })

  it("hang: never answers, and closing the simulator still ends promptly", async () => {
    h = await startHarness()
    await h.control.injectFault({ kind: "hang" })
    const hung = fetch(`${h.sim.url}/public/sports`, { headers: { authorization: "Bearer token-a" }, signal: AbortSignal.timeout(300) })
    await expect(hung).rejects.toThrow()
    expect((await h.control.requests())[0]).toMatchObject({ status: null, fault: "hang" })
    await h.control.injectFault({ kind: "hang" })
    const lingering = fetch(`${h.sim.url}/public/sports`, { headers: { authorization: "Bearer token-a" } }).catch(() => "dropped")
    // Not required: closing must drop the request whether or not the simulator has recorded it yet.
    await eventually("the second request to hang", async () => ((await h.control.requests()).length >= 2 ? true : undefined), { timeoutMs: 1_000 })
      .catch(() => undefined)
    const started = Date.now()
    await h.sim.close()
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(await lingering).toBe("dropped")
    h = await startHarness() // afterEach closes this one
  })

  it("latency: delays the answer, then handles the request normally", async () => {
    h = await startHarness()
    await h.control.injectFault({ kind: "latency", latencyMs: 250 })
    const started = Date.now()
    const answer = await h.call("GET", "/public/sports")
    expect(answer.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(240)
    expect((await h.control.requests())[0]).toMatchObject({ status: 200, fault: "latency" })
  })

  it("durationMs: applies to every matching request until it expires; clearFaults removes faults", async () => {
    h = await startHarness()
    await h.control.injectFault({ kind: "status", status: 502, durationMs: 200 })
    expect((await h.call("GET", "/public/sports")).status).toBe(502)
    expect((await h.call("GET", "/public/sports")).status).toBe(502)
    // Every request meets it until it expires (200 ms), then none does.
    await eventually("the fault to expire", async () => ((await h.call("GET", "/public/sports")).status === 200 ? true : undefined), { timeoutMs: 2_000 })
    expect((await h.call("GET", "/public/sports")).status).toBe(200)
    await h.control.injectFault({ kind: "status", status: 500, count: 5 })
    await h.control.clearFaults()
    expect((await h.call("GET", "/public/sports")).status).toBe(200)
  })

  it("rejects a fault without its required parameter", async () => {
    h = await startHarness()
    await expect(h.control.injectFault({ kind: "status" })).rejects.toThrow(/400/)
    await expect(h.control.injectFault({ kind: "latency" })).rejects.toThrow(/latencyMs/)
  })
})
