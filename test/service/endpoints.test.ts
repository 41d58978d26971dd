import { Effect, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { failureOf, tennisEntry, volleyballEntry, withClient, type Client } from "./harness.ts"

let sim: RunningSimulator
let control: SimulatorControl
const demo = <A, E>(use: (c: Client) => Effect.Effect<A, E>) => withClient(sim.url, "demo-token", use)
const standalone = { companyKey: "demo-org", name: "Friendly", location: { name: "Park", geoLoc: { lat: 46.2, lng: 6.1 } } }

beforeEach(async () => {
  sim = await startSimulator({ port: 0, requestsPerSecond: 1000, burst: 1000, clipDelayMs: 0 })
  control = new SimulatorControl(sim.url)
})
afterEach(() => sim.close())

describe("service client endpoints against the simulator", () => {
  it("lists sports and the organization's places", async () => {
    const [sports, places] = await demo((c) => Effect.all([c.sports, c.places("demo-org")]))
    expect(sports).toContain("tennis")
    expect(sports).toContain("volleyball")
    expect(places.map((p) => [p.key, p.sport])).toEqual([["court-1", "tennis"], ["court-2", "volleyball"]])
    const recorded = await control.requests({ pathPrefix: "/public/places" })
    expect(recorded[0]?.query).toEqual({ companyKey: "demo-org" })
  })

  it("reads a place's active event key, None when no event runs", async () => {
    const before = await demo((c) => c.activeEventKey("court-1"))
    expect(Option.isNone(before)).toBe(true)
    const { eventKey } = await control.startEvent("court-1")
    const after = await demo((c) => c.activeEventKey("court-1"))
    expect(after).toEqual(Option.some(eventKey))
  })

  it("posts a place score: dropped with a warning without an event, added to the running one otherwise", async () => {
    const now = Date.now()
    const dropped = await demo((c) => c.postPlaceScore("court-2", volleyballEntry(now)))
    expect(dropped._tag).toBe("NoEvent")
    expect(dropped._tag === "NoEvent" && dropped.warning.length).toBeGreaterThan(0)

    const { eventKey } = await control.startEvent("court-2")
    const added = await demo((c) => c.postPlaceScore("court-2", volleyballEntry(now + 1)))
    expect(added).toMatchObject({ _tag: "Added", eventKey })
    const event = await demo((c) => c.getEvent(eventKey))
    expect(event.scoreStream?.map((s) => [s.key, s.timeStamp])).toEqual([[added._tag === "Added" ? added.key : "", now + 1]])
    expect(event.scoreStream?.[0]?.["scoreValue"]).toEqual({ gameScores: [[25, 23], [3, 1]] })
  })

  it("posts and deletes an event score entry", async () => {
    const { eventKey } = await control.startEvent("court-1")
    const timeStamp = Date.now()
    const { key } = await demo((c) => c.postEventScore(eventKey, tennisEntry(timeStamp)))
    const stored = await demo((c) => c.getEvent(eventKey))
    expect(stored.scoreStream?.map((s) => s.key)).toEqual([key])
    expect(stored.score).toMatchObject({ key, timeStamp, left: 0, right: 0, period: 1 })
    await demo((c) => c.deleteEventScore(eventKey, key))
    const after = await demo((c) => c.getEvent(eventKey))
    expect(after.scoreStream ?? []).toEqual([])
  })

  it("creates, reads, patches, closes and deletes an event", async () => {
    const { eventKey } = await demo((c) => c.createEvent("bridge-test_1", { ...standalone, homeTeam: "Home" }))
    const created = await demo((c) => c.getEvent(eventKey))
    expect(created).toMatchObject({ key: eventKey, externalEventID: "bridge-test_1", name: "Friendly", homeTeam: "Home", companyKey: "demo-org" })
    expect(created.location).toEqual(standalone.location)

    await demo((c) => c.patchEvent("bridge-test_1", { name: "Final", awayTeam: "Away" }))
    const patched = await demo((c) => c.getEvent(eventKey))
    expect(patched).toMatchObject({ name: "Final", homeTeam: "Home", awayTeam: "Away" })
    expect(patched.endTime).toBeUndefined()

    await demo((c) => c.closeEvent(eventKey))
    const closed = await demo((c) => c.getEvent(eventKey))
    expect(typeof closed.endTime).toBe("number")

    await demo((c) => c.deleteEvent(eventKey))
    const gone = await demo((c) => failureOf(c.getEvent(eventKey)))
    expect(gone).toMatchObject({ _tag: "NotFound", status: 404, path: `/public/events/${eventKey}` })
  })

  it("looks up the event that started on a place within the hour, None otherwise", async () => {
    const { eventKey } = await control.startEvent("court-1")
    const started = (await demo((c) => c.getEvent(eventKey))).startTime ?? 0
    const hourStart = new Date(Math.floor(started / 3_600_000) * 3_600_000)
    const found = await demo((c) => c.lookupEvent("court-1", hourStart))
    expect(found).toEqual(Option.some(eventKey))
    const recorded = await control.requests({ pathPrefix: "/public/event-lookup" })
    expect(recorded[0]?.query).toEqual({
      placeKey: "court-1",
      year: String(hourStart.getUTCFullYear()),
      month: String(hourStart.getUTCMonth() + 1),
      day: String(hourStart.getUTCDate()),
      hour: String(hourStart.getUTCHours())
    })
    const none = await demo((c) => c.lookupEvent("court-1", new Date(hourStart.getTime() - 24 * 3_600_000)))
    expect(Option.isNone(none)).toBe(true)
  })

  it("clicks, reads, patches and deletes a moment and its clips", async () => {
    const { eventKey } = await control.startEvent("court-1")
    const pressedAt = Date.now()
    const clicked = await demo((c) => c.postClick(eventKey, { timeStamp: pressedAt, metadata: { clickId: "c-1" } }))
    expect(clicked.error).toBeUndefined()
    const moment = await eventually("clips on the moment", async () => {
      const m = await demo((c) => c.getMoment(clicked.momentKey))
      return (m.videoClips?.length ?? 0) > 0 ? m : undefined
    })
    expect(moment).toMatchObject({ key: clicked.momentKey, eventKey, metadata: { clickId: "c-1" } })
    const inEvent = (await demo((c) => c.getEvent(eventKey))).moments ?? []
    expect(inEvent.map((m) => [m.key, m.metadata])).toEqual([[clicked.momentKey, { clickId: "c-1" }]])

    const patched = await demo((c) => c.patchMoment(clicked.momentKey, { players: [{ id: "p1", name: "Ann" }] }))
    expect(patched.error).toBeUndefined()
    expect((await demo((c) => c.getMoment(clicked.momentKey))).players).toEqual([{ id: "p1", name: "Ann" }])

    const clips = moment.videoClips ?? []
    const first = clips[0]!.key
    await demo((c) => c.deleteClip(clicked.momentKey, first))
    const fewer = await demo((c) => c.getMoment(clicked.momentKey))
    expect(fewer.videoClips?.map((v) => v.key)).toEqual(clips.slice(1).map((v) => v.key))

    await demo((c) => c.deleteMoment(clicked.momentKey))
    const gone = await demo((c) => failureOf(c.getMoment(clicked.momentKey)))
    expect(gone._tag).toBe("NotFound")
  })

  it("reports a 206 answer's error on click and moment patch", async () => {
    const { eventKey } = await control.startEvent("court-1")
    const big = { blob: "x".repeat(600) }
    const clicked = await demo((c) => c.postClick(eventKey, { timeStamp: Date.now(), metadata: big }))
    expect(clicked.momentKey).toMatch(/\S/)
    expect(clicked.error).toContain("500 bytes")
    const patched = await demo((c) => c.patchMoment(clicked.momentKey, { metadata: big }))
    expect(patched.error).toContain("500 bytes")
  })

  it("previews overlays", async () => {
    const overlay = { imageSource: "https://example.com/logo.png", position: { horizontal: "right", vertical: "top" }, heightPercentOfHeight: 10 } as const
    const { videoURL } = await demo((c) => c.overlayPreview([overlay]))
    expect(videoURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\.mp4$/)
    const recorded = await control.requests({ pathPrefix: "/public/overlay-preview" })
    expect(recorded[0]?.body).toEqual({ overlays: [overlay] })
  })

  it("remembers the last Date header and latency", async () => {
    const before = Date.now()
    const clock = await demo((c) => Effect.andThen(c.sports, c.lastServerDate))
    const seen = Option.getOrThrow(clock)
    // The Date header has whole seconds.
    expect(seen.serverDate).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
    expect(seen.serverDate).toBeLessThanOrEqual(Date.now())
    expect(seen.localDate).toBeGreaterThanOrEqual(before)
    expect(seen.latencyMs).toBeLessThan(5_000)
  })
})
