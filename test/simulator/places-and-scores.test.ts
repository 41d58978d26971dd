import { afterEach, describe, expect, it } from "vitest"
import { fieldsOf, startHarness, tennisEntry, type Harness } from "./support.ts"

let h: Harness
afterEach(async () => { await h.close() })

describe("places and the active event", () => {
  it("answers activeEventKey 404 without an event, the key with one, and 404 for another organization's place", async () => {
    h = await startHarness()
    expect((await h.call("GET", "/public/places/court-1/activeEventKey")).status).toBe(404)
    const { eventKey } = await h.control.startEvent("court-1")
    const active = await h.call("GET", "/public/places/court-1/activeEventKey")
    expect(active).toMatchObject({ status: 200, body: { activeEventKey: eventKey } })
    expect((await h.call("GET", "/public/places/rink-b/activeEventKey")).status).toBe(404)
    const places = await h.call("GET", "/public/places?companyKey=org-a")
    expect(places.body.places[0]).toMatchObject({ key: "court-1", sport: "tennis", activeEventKey: eventKey })
  })

  it("refuses a second open event on a place from the control endpoint", async () => {
    h = await startHarness()
    await h.control.startEvent("court-1")
    await expect(h.control.startEvent("court-1")).rejects.toThrow(/409/)
  })
})

describe("place score", () => {
  it("drops the entry with a warning when no event runs, and adds it to the live event otherwise", async () => {
    h = await startHarness()
    const now = Date.now()
    const dropped = await h.call("POST", "/public/places/court-1/score", tennisEntry(now))
    expect(dropped.status).toBe(200)
    expect(typeof dropped.body.warning).toBe("string")
    expect(dropped.body.eventKey).toBeUndefined()

    const { eventKey } = await h.control.startEvent("court-1")
    const added = await h.call("POST", "/public/places/court-1/score", tennisEntry(now + 1, [2, 0]))
    expect(added.status).toBe(200)
    expect(added.body.eventKey).toBe(eventKey)
    const event = (await h.control.state()).events.find((e) => e.key === eventKey)
    expect(event?.scoreStream).toEqual([{ ...tennisEntry(now + 1, [2, 0]), key: added.body.key }])
  })

  it("validates tennis entries by field", async () => {
    h = await startHarness()
    const now = Date.now()
    const cases: Array<[unknown, Array<string>]> = [
      [{ ...tennisEntry(now), timeStamp: undefined }, ["timeStamp"]],
      [{ ...tennisEntry(now), timeStamp: 1_700_000_000 }, ["timeStamp"]],
      [{ ...tennisEntry(now), timeStamp: now + 0.5 }, ["timeStamp"]],
      [{ ...tennisEntry(now), key: "mine" }, ["key"]],
      [{ ...tennisEntry(now), left: undefined, period: "1" }, ["left", "period"]],
      [{ ...tennisEntry(now), scoreValue: { gameScores: [[6, -1]], pointScore: [1, 0] } }, ["scoreValue.gameScores[0][1]"]],
      [{ ...tennisEntry(now), scoreValue: { gameScores: [], pointScore: [1] } }, ["scoreValue.pointScore[1]"]],
      [{ ...tennisEntry(now), scoreValue: { gameScores: [] } }, ["scoreValue.pointScore"]],
      ["just a string", ["body"]]
    ]
    for (const [body, fields] of cases) {
      const answer = await h.call("POST", "/public/places/court-1/score", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(answer), JSON.stringify(body)).toEqual(fields)
    }
    const seconds = await h.call("POST", "/public/places/court-1/score", { ...tennisEntry(now), timeStamp: 1_700_000_000 })
    expect(seconds.body.errors[0].message).toMatch(/seconds/)
    // Tie-break points are plain counts above 4.
    expect((await h.call("POST", "/public/places/court-1/score", tennisEntry(now, [7, 6]))).status).toBe(200)
  })

  it("validates volleyball and other sports by their own rules", async () => {
    h = await startHarness()
    const now = Date.now()
    const volley = await h.call("POST", "/public/places/court-2/score", { timeStamp: now, scoreValue: { gameScores: [[25, 23], [3, "x"]] } })
    expect(fieldsOf(volley)).toEqual(["scoreValue.gameScores[1][1]"])
    expect((await h.call("POST", "/public/places/court-2/score", { timeStamp: now, scoreValue: { gameScores: [[25, 23]] } })).status).toBe(200)
    expect((await h.call("POST", "/public/places/field-1/score", { timeStamp: now, left: 10, right: 8, period: 2, foulsHome: 3 })).status).toBe(200)
    expect(fieldsOf(await h.call("POST", "/public/places/field-1/score", { timeStamp: now, left: 1.5 }))).toEqual(["left"])
  })

  it("answers 404 for an unknown or foreign place", async () => {
    h = await startHarness()
    expect((await h.call("POST", "/public/places/nowhere/score", { timeStamp: Date.now() })).status).toBe(404)
    expect((await h.call("POST", "/public/places/rink-b/score", { timeStamp: Date.now() })).status).toBe(404)
  })
})

describe("event score", () => {
  it("accepts entries for a closed event, keeps the stream in timestamp order and deletes by key", async () => {
    h = await startHarness()
    const { eventKey, externalID } = await h.control.startEvent("court-1")
    await h.control.closeEvent("court-1")
    const now = Date.now()
    const later = await h.call("POST", `/public/events/${eventKey}/score`, tennisEntry(now + 10))
    const earlier = await h.call("POST", `/public/events/${externalID}/score`, tennisEntry(now))
    expect([later.status, earlier.status]).toEqual([200, 200])
    const event = await h.call("GET", `/public/events/${eventKey}`)
    expect(event.body.scoreStream.map((e: { key: string }) => e.key)).toEqual([earlier.body.key, later.body.key])
    expect(event.body.score.key).toBe(later.body.key)

    expect((await h.call("DELETE", `/public/events/${eventKey}/score/${earlier.body.key}`)).status).toBe(200)
    expect((await h.call("DELETE", `/public/events/${eventKey}/score/${earlier.body.key}`)).status).toBe(404)
    const after = await h.call("GET", `/public/events/${eventKey}`)
    expect(after.body.scoreStream.map((e: { key: string }) => e.key)).toEqual([later.body.key])
  })

  it("validates by the event's sport and answers 404 for an unknown event", async () => {
    h = await startHarness()
    const { eventKey } = await h.control.startEvent("court-1")
    expect(fieldsOf(await h.call("POST", `/public/events/${eventKey}/score`, { timeStamp: Date.now() }))).toEqual(
      ["left", "right", "period", "scoreValue"]
    )
    expect((await h.call("POST", "/public/events/no-such-event/score", tennisEntry(Date.now()))).status).toBe(404)
    expect((await h.call("POST", `/public/events/${eventKey}/score`, tennisEntry(Date.now()), "token-b")).status).toBe(404)
  })
})
