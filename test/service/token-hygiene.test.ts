import { inspect } from "node:util"
import { Cause, Effect, Exit, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ServiceClient } from "../../src/service/client.ts"
import type { ServiceError } from "../../src/service/errors.ts"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { failureOf, tennisEntry, withClient, type Client } from "./harness.ts"

const token = "tok-S3cr3t-4b9d2e81"
const wrongToken = "tok-Wr0ng-c0ffee55"
const otherToken = "tok-0ther-9a8b7c6d"
const seed = {
  organizations: [
    { key: "demo-org", name: "Demo", tokens: [token], places: [{ key: "court-1", name: "Court 1", sport: "tennis" }] },
    { key: "other-org", name: "Other", tokens: [otherToken], places: [{ key: "other-court", name: "Other", sport: "tennis" }] }
  ]
}
const standalone = { companyKey: "demo-org", name: "Friendly", location: { name: "Park", geoLoc: { lat: 46.2, lng: 6.1 } } }

let sim: RunningSimulator
let control: SimulatorControl
beforeAll(async () => {
  sim = await startSimulator({ port: 0, requestsPerSecond: 1000, burst: 1000, clipDelayMs: 0, seed })
  control = new SimulatorControl(sim.url)
})
afterAll(() => sim.close())

/** Every way an error can be shown: as a string, as JSON, its message, inspected, and inside a failed Effect's cause. */
const renderings = async (error: unknown): Promise<Array<string>> => {
  const exit = await Effect.runPromiseExit(Effect.fail(error))
  return [
    String(error),
    JSON.stringify(error),
    (error as Error).message,
    inspect(error, { depth: 10, showHidden: true }),
    Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
  ]
}

describe("the API token never appears in errors", () => {
  it("for every error kind the client produces", async () => {
    const errors: Array<ServiceError> = []
    const collect = async <A, E extends ServiceError>(t: string, use: (c: Client) => Effect.Effect<A, E>, timeoutMs?: number) => {
      errors.push(await withClient(sim.url, t, (c) => failureOf(use(c)), timeoutMs))
    }
    const { eventKey: otherEvent } = await control.startEvent("other-court")
    const { momentKey } = await withClient(sim.url, otherToken, (c) => c.postClick(otherEvent, { timeStamp: Date.now() }))
    const { eventKey } = await control.startEvent("court-1")

    await collect(token, (c) => c.createEvent("bad id!", standalone))
    await collect(wrongToken, (c) => c.sports)
    await collect(token, (c) => c.deleteMoment(momentKey))
    await collect(token, (c) => c.getEvent("missing"))
    await withClient(sim.url, token, (c) => c.createEvent("dup", standalone))
    await collect(token, (c) => c.createEvent("dup", standalone))
    await collect(token, (c) => c.deleteEvent(eventKey))
    await control.injectFault({ kind: "status", status: 422, pathPrefix: "/public/sports" })
    await collect(token, (c) => c.sports)
    await control.injectFault({ kind: "status", status: 500, pathPrefix: "/public/sports" })
    await collect(token, (c) => c.sports)
    await control.injectFault({ kind: "status", status: 418, pathPrefix: "/public/sports" })
    await collect(token, (c) => c.sports)
    await control.injectFault({ kind: "hang", pathPrefix: "/public/sports" })
    await collect(token, (c) => c.sports, 200)
    await control.injectFault({ kind: "reset-after-apply", pathPrefix: `/public/events/${eventKey}/score` })
    await collect(token, (c) => c.postEventScore(eventKey, tennisEntry(Date.now())))
    const closed = await freePort()
    errors.push(await withClient(`http://127.0.0.1:${closed}`, token, (c) => failureOf(c.sports)))
    await control.setRate({ requestsPerSecond: 1, burst: 1 })
    await collect(token, (c) => Effect.andThen(c.sports, c.sports))

    expect(new Set(errors.map((e) => e._tag))).toEqual(new Set([
      "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "StillRunning", "Unprocessable",
      "ServerError", "UnexpectedResponse", "RequestTimeout", "ConnectionFailed", "RateLimited"
    ]))
    for (const error of errors) {
      for (const text of await renderings(error)) {
        expect(text).not.toContain(token)
        expect(text).not.toContain(wrongToken)
        expect(text).not.toContain("Bearer")
      }
    }
    // The checks above would pass on empty renderings; make sure they carried the facts.
    expect(String(errors[0])).toContain("/public/events/bad%20id!")
  })

  it("for a refused base URL and for the client itself", async () => {
    const layer = (baseUrl: string) => ServiceClient.layer({ baseUrl, token: Redacted.make(token) })
    const refused = await Effect.runPromise(Effect.flip(Effect.provide(Effect.asVoid(ServiceClient), layer("http://scores.example.com"))))
    const client = await Effect.runPromise(Effect.provide(ServiceClient, layer(sim.url)))
    for (const text of [...await renderings(refused), String(client), JSON.stringify(client), inspect(client, { depth: 10, showHidden: true })]) {
      expect(text).not.toContain(token)
    }
  })
})
