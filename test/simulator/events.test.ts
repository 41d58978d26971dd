import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { fieldsOf, startHarness, type Harness } from "./support.ts"

let h: Harness
afterEach(async () => { await h.close() })

const location = { name: "Park", geoLoc: { lat: 45.5, lng: -73.6 } }
const standalone = { companyKey: "org-a", name: "Friendly", location }
const scheduled = (startInMs: number, lengthMs = 3_600_000) => ({
  companyKey: "org-a",
  name: "Final",
  placeKey: "court-1",
  scheduledStartTime: Date.now() + startInMs,
  scheduledEndTime: Date.now() + startInMs + lengthMs
})

describe("event create", () => {
  it("creates a standalone event readable by either id", async () => {
    h = await startHarness()
    const created = await h.call("POST", "/public/events/friendly-1", { ...standalone, homeTeam: "A", metadata: { round: 1 } })
    expect(created.status).toBe(200)
    const byKey = await h.call("GET", `/public/events/${created.body.eventKey}`)
    const byExternal = await h.call("GET", "/public/events/friendly-1")
    expect(byKey.body).toEqual(byExternal.body)
    expect(byKey.body).toMatchObject({
      key: created.body.eventKey, externalEventID: "friendly-1", companyKey: "org-a", name: "Friendly",
      sport: "other", pinCode: -1, cameraPinCode: -1, homeTeam: "A", location, metadata: { round: 1 }, scoreStream: [], moments: []
    })
    expect((await h.call("GET", "/public/events/friendly-1", undefined, "token-b")).status).toBe(404)
  })

  it("inherits sport and location from the place of a scheduled event", async () => {
    h = await startHarness()
    const created = await h.call("POST", "/public/events/final-1", scheduled(60_000))
    expect(created.status).toBe(200)
    const event = await h.call("GET", "/public/events/final-1")
    expect(event.body).toMatchObject({ sport: "tennis", placeKey: "court-1", location: { name: "Club" } })
    expect(event.body.startTime).toBeUndefined()
  })

  it("answers 400 naming the field for each rule", async () => {
    h = await startHarness()
    const cases: Array<[string, unknown, Array<string>]> = [
      ["bad.id", standalone, ["externalID"]],
      ["x".repeat(65), standalone, ["externalID"]],
      ["ok-1", { ...standalone, name: "" }, ["name"]],
      ["ok-1", { ...standalone, companyKey: undefined }, ["companyKey"]],
      ["ok-1", { ...standalone, location: undefined }, ["location"]],
      ["ok-1", { ...standalone, location: { name: "Park", geoLoc: { lat: 1 } } }, ["location.geoLoc.lng"]],
      ["ok-1", { ...standalone, sport: "quidditch" }, ["sport"]],
      ["ok-1", { ...standalone, pinCode: 10_000 }, ["pinCode"]],
      ["ok-1", { ...standalone, metadata: { blob: "x".repeat(4000) } }, ["metadata"]],
      ["ok-1", { ...standalone, scheduledStartTime: Date.now() + 60_000, scheduledEndTime: Date.now() + 3_600_000 }, ["placeKey"]],
      ["ok-1", { ...scheduled(60_000), scheduledEndTime: undefined }, ["scheduledEndTime"]],
      ["ok-1", { ...scheduled(60_000), scheduledStartTime: undefined, scheduledEndTime: undefined }, ["scheduledStartTime"]],
      ["ok-1", scheduled(-60_000), ["scheduledStartTime"]],
      ["ok-1", scheduled(60_000, 4 * 60_000), ["scheduledEndTime"]]
    ]
    for (const [id, body, fields] of cases) {
      const answer = await h.call("POST", `/public/events/${id}`, body)
      expect(answer.status, `${id} ${JSON.stringify(body)}`).toBe(400)
      expect(fieldsOf(answer), `${id} ${JSON.stringify(body)}`).toEqual(fields)
    }
    expect((await h.call("GET", "/public/events/ok-1")).status).toBe(404)
  })

  it("answers 401 for another organization's companyKey and 404 for its place", async () => {
    h = await startHarness()
    expect((await h.call("POST", "/public/events/x1", { ...standalone, companyKey: "org-b" })).status).toBe(401)
    expect((await h.call("POST", "/public/events/x1", { ...scheduled(60_000), placeKey: "rink-b" })).status).toBe(404)
  })

  it("answers 409 while the id is used by an open event and reopens a closed one", async () => {
    h = await startHarness()
    const first = await h.call("POST", "/public/events/match-7", standalone)
    expect((await h.call("POST", "/public/events/match-7", standalone)).status).toBe(409)
    expect((await h.call("POST", "/public/events/match-7/close")).status).toBe(200)
    expect((await h.call("GET", "/public/events/match-7")).body.endTime).toBeTypeOf("number")
    const again = await h.call("POST", "/public/events/match-7", standalone)
    expect(again).toMatchObject({ status: 200, body: { eventKey: first.body.eventKey } })
    expect((await h.call("GET", "/public/events/match-7")).body.endTime).toBeUndefined()
    expect((await h.control.state()).events).toHaveLength(1)
  })
})

describe("event modify, delete, close", () => {
  it("patches only present fields and enforces the scheduling rules", async () => {
    h = await startHarness()
    await h.call("POST", "/public/events/final-2", scheduled(60_000))
    const patched = await h.call("PATCH", "/public/events/final-2", { name: "Grand final", awayTeam: "B" })
    expect(patched.status).toBe(200)
    expect((await h.call("GET", "/public/events/final-2")).body).toMatchObject({ name: "Grand final", awayTeam: "B", sport: "tennis" })
    const tooShort = await h.call("PATCH", "/public/events/final-2", { scheduledEndTime: Date.now() + 120_000 })
    expect(fieldsOf(tooShort)).toEqual(["scheduledEndTime"])
    expect((await h.call("PATCH", "/public/events/final-2", { scheduledStartTime: Date.now() + 120_000 })).status).toBe(200)

    const { eventKey } = await h.control.startEvent("court-2")
    const running = await h.call("PATCH", `/public/events/${eventKey}`, { scheduledStartTime: Date.now() + 60_000, scheduledEndTime: Date.now() + 3_600_000 })
    expect(fieldsOf(running)).toContain("scheduledStartTime")
    expect((await h.call("PATCH", "/public/events/nope", { name: "x" })).status).toBe(404)
    expect((await h.call("PATCH", `/public/events/${eventKey}`, { companyKey: "org-b" })).status).toBe(401)
  })

  it("answers 417 deleting a running event and deletes it once closed", async () => {
    h = await startHarness()
    const { eventKey } = await h.control.startEvent("court-1")
    expect((await h.call("DELETE", `/public/events/${eventKey}`)).status).toBe(417)
    expect((await h.call("POST", `/public/events/${eventKey}/close`)).status).toBe(200)
    expect((await h.call("GET", "/public/places/court-1/activeEventKey")).status).toBe(404)
    expect((await h.call("DELETE", `/public/events/${eventKey}`)).status).toBe(200)
    expect((await h.call("GET", `/public/events/${eventKey}`)).status).toBe(404)
    expect((await h.call("POST", `/public/events/${eventKey}/close`)).status).toBe(404)
  })

  it("starts a scheduled event once its start time has passed", async () => {
    h = await startHarness()
    const created = await h.call("POST", "/public/events/soon", scheduled(150))
    expect((await h.call("GET", "/public/places/court-1/activeEventKey")).status).toBe(404)
    const active = await eventually("the scheduled event to start", async () => {
      const answer = await h.call("GET", "/public/places/court-1/activeEventKey")
      return answer.status === 200 ? answer : undefined
    }, { timeoutMs: 2_000 })
    expect(active.body.activeEventKey).toBe(created.body.eventKey)
  })
})

describe("event lookup and search", () => {
  it("finds the event that started within the hour after the given time", async () => {
    h = await startHarness()
    const { eventKey } = await h.control.startEvent("court-1")
    const now = new Date()
    const q = (d: Date, place = "court-1") =>
      `/public/event-lookup-by-place-and-time?placeKey=${place}&year=${d.getUTCFullYear()}&month=${d.getUTCMonth() + 1}&day=${d.getUTCDate()}&hour=${d.getUTCHours()}`
    expect((await h.call("GET", q(now))).body).toEqual({ eventKey })
    expect((await h.call("GET", q(new Date(now.getTime() - 3_600_000)))).status).toBe(404)
    expect((await h.call("GET", q(now, "court-2"))).status).toBe(404)
    const bad = await h.call("GET", "/public/event-lookup-by-place-and-time?placeKey=court-1&year=2024&month=13&day=1")
    expect(fieldsOf(bad)).toEqual(["month", "hour"])
  })

  it("searches by state with paging and ordering", async () => {
    h = await startHarness()
    await h.call("POST", "/public/events/later", scheduled(7_200_000))
    await h.call("POST", "/public/events/sooner", scheduled(3_600_000))
    const live = await h.control.startEvent("court-2")
    await h.control.startEvent("field-1")
    await h.control.closeEvent("field-1")
    const search = (state: string, page = 0, pageSize = 10) =>
      h.call("GET", `/public/event-search-by-company?companyKey=org-a&state=${state}&pageSize=${pageSize}&page=${page}`)
    const future = await search("future", 0, 1)
    expect(future.body).toMatchObject({ page: 0, pageSize: 1, totalCount: 2, events: [{ externalEventID: "sooner" }] })
    expect((await search("future", 1, 1)).body.events[0].externalEventID).toBe("later")
    expect((await search("current")).body.events.map((e: { key: string }) => e.key)).toEqual([live.eventKey])
    expect((await search("past")).body.totalCount).toBe(1)
    expect(fieldsOf(await search("someday"))).toEqual(["state"])
    expect((await h.call("GET", "/public/event-search-by-company?companyKey=org-b&state=past&pageSize=1&page=0")).status).toBe(401)
  })
})
