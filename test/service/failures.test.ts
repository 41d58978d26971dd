import { Effect, Exit, Redacted } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { ServiceClient } from "../../src/service/client.ts"
import { retryClass } from "../../src/service/errors.ts"
import { demoSeed, startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { failureOf, tennisEntry, withClient, type Client } from "./harness.ts"

/** Two organizations, so one can touch what belongs to the other. */
const seed = {
  organizations: [
    ...demoSeed.organizations,
    { key: "other-org", name: "Other", tokens: ["other-token"], places: [{ key: "other-court", name: "Other court", sport: "tennis" }] }
  ]
}
let sim: RunningSimulator
let control: SimulatorControl
const demo = <A, E>(use: (c: Client) => Effect.Effect<A, E>, timeoutMs?: number) => withClient(sim.url, "demo-token", use, timeoutMs)
const standalone = { companyKey: "demo-org", name: "Friendly", location: { name: "Park", geoLoc: { lat: 46.2, lng: 6.1 } } }

beforeEach(async () => {
  sim = await startSimulator({ port: 0, requestsPerSecond: 1000, burst: 1000, clipDelayMs: 0, seed })
  control = new SimulatorControl(sim.url)
})
afterEach(() => sim.close())

describe("service client error mapping against the simulator", () => {
  it("400 names the failing field", async () => {
    const error = await demo((c) => failureOf(c.createEvent("ev-1", { ...standalone, name: "", sport: "quidditch" })))
    expect(error._tag).toBe("BadRequest")
    const fields = error._tag === "BadRequest" ? error.errors.map((e) => e.field) : []
    expect(fields).toEqual(expect.arrayContaining(["name", "sport"]))
    expect(error.message).toContain("sport")
    expect(retryClass(error)).toBe("never")
  })

  it("401 for a missing or unknown token and for another organization's companyKey", async () => {
    const empty = await withClient(sim.url, "", (c) => failureOf(c.sports))
    const unknown = await withClient(sim.url, "not-a-token", (c) => failureOf(c.sports))
    const foreign = await demo((c) => failureOf(c.places("other-org")))
    for (const error of [empty, unknown, foreign]) {
      expect(error).toMatchObject({ _tag: "Unauthorized", status: 401 })
      expect(retryClass(error)).toBe("unauthorized")
    }
    expect(foreign).toMatchObject({ method: "GET", path: "/public/places?companyKey=other-org" })
  })

  it("403 when changing another organization's moment", async () => {
    const { eventKey } = await control.startEvent("other-court")
    const { momentKey } = await withClient(sim.url, "other-token", (c) => c.postClick(eventKey, { timeStamp: Date.now() }))
    const error = await demo((c) => failureOf(c.deleteMoment(momentKey)))
    expect(error).toMatchObject({ _tag: "Forbidden", status: 403, method: "DELETE", path: `/public/moments/${momentKey}` })
    expect(retryClass(error)).toBe("never")
  })

  it("404 for an unknown event, with the service's words", async () => {
    const error = await demo((c) => failureOf(c.postEventScore("no-such-event", tennisEntry(Date.now()))))
    expect(error).toMatchObject({ _tag: "NotFound", status: 404, path: "/public/events/no-such-event/score", error: "event not found" })
  })

  it("409 when the external id is used by an open event; 417 when deleting a running event", async () => {
    await demo((c) => c.createEvent("dup-1", standalone))
    const conflict = await demo((c) => failureOf(c.createEvent("dup-1", standalone)))
    expect(conflict).toMatchObject({ _tag: "Conflict", status: 409 })
    const running = await demo((c) => failureOf(c.deleteEvent("dup-1")))
    expect(running).toMatchObject({ _tag: "StillRunning", status: 417, method: "DELETE", path: "/public/events/dup-1" })
    expect([retryClass(conflict), retryClass(running)]).toEqual(["never", "never"])
  })

  it("422 and 5xx injected by the simulator", async () => {
    await control.injectFault({ kind: "status", status: 422, pathPrefix: "/public/sports" })
    await control.injectFault({ kind: "status", status: 503, pathPrefix: "/public/sports" })
    const [unprocessable, unavailable] = await demo((c) => Effect.all([failureOf(c.sports), failureOf(c.sports)]))
    expect(unprocessable).toMatchObject({ _tag: "Unprocessable", status: 422, error: "injected fault" })
    expect(unavailable).toMatchObject({ _tag: "ServerError", status: 503, error: "injected fault" })
    expect([retryClass(unprocessable), retryClass(unavailable)]).toEqual(["unprocessable", "transient"])
  })

  it("429 when the rate budget is spent", async () => {
    await control.setRate({ requestsPerSecond: 1, burst: 1 })
    const [first, second] = await demo((c) => Effect.all([Effect.exit(c.sports), failureOf(c.sports)]))
    expect(Exit.isSuccess(first)).toBe(true)
    expect(second).toMatchObject({ _tag: "RateLimited", status: 429, error: "rate limit exceeded" })
    expect(retryClass(second)).toBe("rate-limited")
  })

  it("a reset before the service applied the request is a connection failure with an unknown outcome", async () => {
    const { eventKey } = await control.startEvent("court-1")
    await control.injectFault({ kind: "reset", pathPrefix: `/public/events/${eventKey}/score` })
    const error = await demo((c) => failureOf(c.postEventScore(eventKey, tennisEntry(Date.now()))))
    expect(error).toMatchObject({ _tag: "ConnectionFailed", sent: true })
    expect(retryClass(error)).toBe("transient")
    expect((await demo((c) => c.getEvent(eventKey))).scoreStream ?? []).toHaveLength(0)
  })

  it("a reset after the service applied the request is reported as sent, and the entry exists", async () => {
    const { eventKey } = await control.startEvent("court-1")
    await control.injectFault({ kind: "reset-after-apply", pathPrefix: `/public/events/${eventKey}/score` })
    const timeStamp = Date.now()
    const error = await demo((c) => failureOf(c.postEventScore(eventKey, tennisEntry(timeStamp))))
    expect(error).toMatchObject({ _tag: "ConnectionFailed", sent: true, method: "POST", path: `/public/events/${eventKey}/score` })
    const stream = (await demo((c) => c.getEvent(eventKey))).scoreStream ?? []
    expect(stream.map((s) => s.timeStamp)).toEqual([timeStamp])
  })

  it("a hung request ends in RequestTimeout after the configured timeout", async () => {
    await control.injectFault({ kind: "hang", pathPrefix: "/public/sports" })
    const started = Date.now()
    const [error, elapsed, next] = await demo((c) =>
      Effect.gen(function*() {
        const error = yield* failureOf(c.sports)
        const elapsed = Date.now() - started
        // The same client answers the next call: the abandoned connection is not reused.
        return [error, elapsed, yield* c.sports] as const
      }), 300)
    expect(error).toMatchObject({ _tag: "RequestTimeout", sent: true, timeoutMs: 300 })
    expect(elapsed).toBeGreaterThanOrEqual(290)
    expect(elapsed).toBeLessThan(5_000)
    expect(next).toContain("tennis")
  })

  it("refuses a non-loopback http:// base URL when the layer is built", async () => {
    const error = await Effect.runPromise(Effect.flip(
      Effect.provide(Effect.asVoid(ServiceClient), ServiceClient.layer({ baseUrl: "http://scores.example.com", token: Redacted.make("t") }))
    ))
    expect(error).toMatchObject({ _tag: "InvalidBaseUrl", url: "http://scores.example.com" })
    expect(error.message).toContain("only to loopback")
  })
})
