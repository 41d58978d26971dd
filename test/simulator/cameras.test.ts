import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { fieldsOf, startHarness, type Answer, type Harness } from "./support.ts"

let h: Harness
afterEach(async () => { await h.close() })

const click = async (eventKey: string): Promise<string> => {
  const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: Date.now() })
  expect(answer.status).toBe(200)
  return answer.body.momentKey as string
}

const readMoment = (momentKey: string): Promise<Answer> => h.call("GET", `/public/moments/${momentKey}`)

/** The moment once generation has ended, whatever its outcome. */
const settled = (momentKey: string) =>
  eventually(`moment ${momentKey} to leave "processing"`, async () => {
    const moment = (await readMoment(momentKey)).body
    return moment.momentStatus === "processing" ? undefined : moment
  })

const placeState = async (placeKey: string) =>
  (await h.control.state()).organizations.flatMap((o) => o.places).find((p) => p.key === placeKey)

const stateMoment = async (momentKey: string) =>
  (await h.control.state()).events.flatMap((e) => e.moments).find((m) => m.key === momentKey)

const deviceIDs = (moment: { videoClips: Array<{ deviceID: string }> }) => moment.videoClips.map((c) => c.deviceID)

describe("cameras", () => {
  it("every place starts with its cameras on; a seed can name other cameras, each making a clip", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const places = (await h.control.state()).organizations.flatMap((o) => o.places)
    for (const place of places) expect(place, place.key).toMatchObject({ cameras: ["camera-1", "camera-2"], activeCameras: ["camera-1", "camera-2"] })
    await h.close()
    h = await startHarness({
      clipDelayMs: 0,
      seed: { organizations: [{ key: "org-a", name: "Org A", tokens: ["token-a"], places: [{ key: "hall", name: "Hall", sport: "basketball", cameras: ["north", "south", "east"] }] }] }
    })
    expect(await placeState("hall")).toMatchObject({ cameras: ["north", "south", "east"], activeCameras: ["north", "south", "east"] })
    const { eventKey } = await h.control.startEvent("hall")
    expect(deviceIDs(await settled(await click(eventKey)))).toEqual(["north", "south", "east"])
  })

  it("cameras off: the moment never gets clips, even once they are back on, and the state says why", async () => {
    h = await startHarness({ clipDelayMs: 100 })
    const { eventKey } = await h.control.startEvent("court-1")
    expect(await h.control.setCameras("court-1", false)).toEqual({ placeKey: "court-1", cameras: ["camera-1", "camera-2"], activeCameras: [] })
    expect((await placeState("court-1"))?.activeCameras).toEqual([])
    expect((await placeState("court-2"))?.activeCameras).toEqual(["camera-1", "camera-2"]) // one place only
    const momentKey = await click(eventKey)
    // Back on while the moment is still being generated: only the click's arrival counts.
    await h.control.setCameras("court-1", true)
    const moment = await settled(momentKey)
    expect(moment).toMatchObject({ key: momentKey, momentStatus: "failed", videoClips: [] })
    expect(await stateMoment(momentKey)).toMatchObject({ momentStatus: "failed", videoClips: [], failure: "no camera was recording when the click arrived" })
  })

  it("keeps a failed moment processing until the clip delay has passed, as the service would", async () => {
    h = await startHarness({ clipDelayMs: 60_000 })
    const { eventKey } = await h.control.startEvent("court-1")
    await h.control.setCameras("court-1", false)
    const momentKey = await click(eventKey)
    expect((await readMoment(momentKey)).body).toMatchObject({ momentStatus: "processing", videoClips: [] })
    expect(await stateMoment(momentKey)).toMatchObject({ momentStatus: "processing", failure: expect.stringMatching(/no camera/) })
  })

  it("back on: the next click gets one clip per camera, each with a videoURL", async () => {
    h = await startHarness({ clipDelayMs: 100 })
    const { eventKey } = await h.control.startEvent("court-1")
    await h.control.setCameras("court-1", false)
    expect(await h.control.setCameras("court-1", true)).toMatchObject({ activeCameras: ["camera-1", "camera-2"] })
    const momentKey = await click(eventKey)
    const moment = await settled(momentKey)
    expect(moment.momentStatus).toBe("ready")
    expect(moment.videoClips).toEqual([
      expect.objectContaining({ rank: 0, deviceID: "camera-1", videoURL: expect.stringMatching(new RegExp(`^${h.sim.url}/.+\\.mp4$`)) }),
      expect.objectContaining({ rank: 1, deviceID: "camera-2", videoURL: expect.stringMatching(new RegExp(`^${h.sim.url}/.+\\.mp4$`)) })
    ])
    expect((await stateMoment(momentKey))?.failure).toBeUndefined()
  })

  it("one camera on: one clip, from that camera", async () => {
    h = await startHarness({ clipDelayMs: 100 })
    const { eventKey } = await h.control.startEvent("court-1")
    expect(await h.control.setActiveCameras("court-1", ["camera-2"])).toMatchObject({ activeCameras: ["camera-2"] })
    expect((await placeState("court-1"))?.activeCameras).toEqual(["camera-2"])
    const moment = await settled(await click(eventKey))
    expect(moment.momentStatus).toBe("ready")
    expect(moment.videoClips).toEqual([expect.objectContaining({ rank: 0, deviceID: "camera-2", videoURL: expect.stringMatching(/\.mp4$/) })])
  })

  it("a standalone event has no camera: its moment fails", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const created = await h.call("POST", "/public/events/friendly-1", { companyKey: "org-a", name: "Friendly", location: { name: "Park", geoLoc: { lat: 1, lng: 2 } } })
    const momentKey = await click(created.body.eventKey)
    expect(await settled(momentKey)).toMatchObject({ momentStatus: "failed", videoClips: [] })
    expect((await stateMoment(momentKey))?.failure).toMatch(/not attached to a place/)
  })

  it("clipSpreadMs: each further camera's clip appears that much later", async () => {
    h = await startHarness({ clipDelayMs: 0, clipSpreadMs: 2_000 })
    const { eventKey } = await h.control.startEvent("court-1")
    const momentKey = await click(eventKey)
    const first = (await readMoment(momentKey)).body
    expect(first.momentStatus).toBe("processing")
    expect(deviceIDs(first)).toEqual(["camera-1"])
    const moment = await settled(momentKey)
    expect(moment.momentStatus).toBe("ready")
    expect(deviceIDs(moment)).toEqual(["camera-1", "camera-2"])
  })

  it("answers 400 naming the field for a bad body, and leaves the cameras as they were", async () => {
    h = await startHarness()
    const cases: Array<[unknown, Array<string>]> = [
      [{}, ["active"]],
      [{ on: false }, ["active"]],
      [{ active: "camera-1" }, ["active"]],
      [{ active: [""] }, ["active[0]"]],
      [{ active: ["camera-1", "camera-9"] }, ["active[1]"]],
      [{ active: ["camera-2", "camera-2"] }, ["active[1]"]]
    ]
    for (const [body, fields] of cases) {
      const answer = await h.call("PUT", "/_control/places/court-1/cameras", body, null)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(answer), JSON.stringify(body)).toEqual(fields)
    }
    expect((await h.call("PUT", "/_control/places/court-1/cameras", "{not json", null)).status).toBe(400)
    await expect(h.control.setActiveCameras("court-1", ["camera-3"])).rejects.toThrow(/400.*camera-3/)
    expect((await placeState("court-1"))?.activeCameras).toEqual(["camera-1", "camera-2"])
  })

  it("answers 404 for an unknown place", async () => {
    h = await startHarness()
    expect((await h.call("PUT", "/_control/places/nowhere/cameras", { active: [] }, null)).status).toBe(404)
    await expect(h.control.setCameras("nowhere", false)).rejects.toThrow(/404/)
    await expect(h.control.setCameras("nowhere", true)).rejects.toThrow(/404/)
  })
})
