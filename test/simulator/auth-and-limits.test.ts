import { afterEach, describe, expect, it } from "vitest"
import { fieldsOf, startHarness, type Harness } from "./support.ts"

let h: Harness
afterEach(async () => { await h.close() })

describe("authentication", () => {
  it("answers 401 without a token and with an unknown token, without echoing it", async () => {
    h = await startHarness()
    expect((await h.call("GET", "/public/sports", undefined, null)).status).toBe(401)
    const unknown = await h.call("GET", "/public/sports", undefined, "secret-XYZ")
    expect(unknown.status).toBe(401)
    expect(JSON.stringify(unknown.body)).not.toContain("secret-XYZ")
    const recorded = await h.control.requests()
    expect(JSON.stringify(recorded)).not.toContain("secret-XYZ")
    expect(recorded.map((r) => r.status)).toEqual([401, 401])
  })

  it("answers 401 for another organization's companyKey and 200 for its own", async () => {
    h = await startHarness()
    expect((await h.call("GET", "/public/places?companyKey=org-b")).status).toBe(401)
    const own = await h.call("GET", "/public/places?companyKey=org-a")
    expect(own.status).toBe(200)
    expect(own.body.places.map((p: { key: string }) => p.key)).toEqual(["court-1", "court-2", "field-1"])
    const missing = await h.call("GET", "/public/places")
    expect(missing.status).toBe(400)
    expect(fieldsOf(missing)).toEqual(["companyKey"])
  })

  it("a token revoked through the control API answers 401 from then on; the other organization's still works", async () => {
    h = await startHarness()
    expect((await h.call("GET", "/public/sports")).status).toBe(200)
    await h.control.revokeToken("token-a")
    const revoked = await h.call("GET", "/public/sports")
    expect(revoked.status).toBe(401)
    expect(JSON.stringify(revoked.body)).not.toContain("token-a")
    expect((await h.call("GET", "/public/sports", undefined, "token-b")).status).toBe(200)
    await expect(h.control.revokeToken("never-issued")).rejects.toThrow(/404/u)
  })

  it("lists the sport codes and sends a Date header", async () => {
    h = await startHarness()
    const sports = await h.call("GET", "/public/sports")
    expect(sports.status).toBe(200)
    expect(sports.body.sports).toContain("tennis")
    expect(sports.body.sports).toContain("volleyball")
    expect(Math.abs(Date.parse(sports.headers.get("date") ?? "") - Date.now())).toBeLessThan(5_000)
  })

  it("records organization keys, bodies and answers but not control calls", async () => {
    h = await startHarness()
    await h.call("POST", "/public/places/court-1/score", { timeStamp: Date.now() })
    await h.control.state()
    const [entry, ...rest] = await h.control.requests()
    expect(rest).toEqual([])
    expect(entry).toMatchObject({ seq: 1, method: "POST", path: "/public/places/court-1/score", organization: "org-a", status: 400 })
    expect(entry?.response).toMatchObject({ errors: expect.any(Array) })
    await h.control.clearRequests()
    expect(await h.control.requests()).toEqual([])
  })
})

describe("request bodies", () => {
  it("answers 400 naming body for malformed JSON and 413 over 1 MB", async () => {
    h = await startHarness()
    const bad = await h.call("POST", "/public/places/court-1/score", "{not json")
    expect(bad.status).toBe(400)
    expect(fieldsOf(bad)).toEqual(["body"])
    const huge = await h.call("POST", "/public/places/court-1/score", { timeStamp: Date.now(), pad: "x".repeat(1_100_000) })
    expect(huge.status).toBe(413)
  })

  it("answers 404 for an unknown endpoint", async () => {
    h = await startHarness()
    expect((await h.call("GET", "/public/nothing-here")).status).toBe(404)
  })
})

describe("rate limit", () => {
  it("admits a burst, answers 429 beyond it without consuming, and refills", async () => {
    h = await startHarness({ requestsPerSecond: 5, burst: 2 })
    const first = await Promise.all([1, 2, 3].map(() => h.call("GET", "/public/sports")))
    expect(first.map((a) => a.status).sort()).toEqual([200, 200, 429])
    const rejected = first.find((a) => a.status === 429)
    expect(rejected?.body).toEqual({ error: "rate limit exceeded" })
    // Another organization's token has its own bucket.
    expect((await h.call("GET", "/public/sports", undefined, "token-b")).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 250)) // 5/s refills one token in 200 ms
    expect((await h.call("GET", "/public/sports")).status).toBe(200)
    expect((await h.call("GET", "/public/sports")).status).toBe(429)
    expect((await h.control.requests({ status: 429 })).length).toBe(2)
  })

  it("applies a rate set through the control endpoint, which is itself never limited", async () => {
    h = await startHarness()
    await h.control.setRate({ requestsPerSecond: 1, burst: 1 })
    for (let i = 0; i < 5; i++) await h.control.state()
    expect((await h.call("GET", "/public/sports")).status).toBe(200)
    expect((await h.call("GET", "/public/sports")).status).toBe(429)
    expect((await h.control.state()).rate).toEqual({ requestsPerSecond: 1, burst: 1 })
  })
})
