import { afterEach, describe, expect, it } from "vitest"
import { fieldsOf, startHarness, type Harness } from "./support.ts"
import { eventually } from "../../scripts/support/eventually.ts"

let h: Harness
afterEach(async () => { await h.close() })

const overlay = { imageSource: "https://example.test/logo.png", position: { horizontal: "right", vertical: "top" }, heightPercentOfHeight: 10 }

describe("clicks", () => {
  it("creates a moment whose two clips (one per camera) appear after the clip delay", async () => {
    h = await startHarness({ clipDelayMs: 200 })
    const { eventKey } = await h.control.startEvent("court-1")
    const t = Date.now()
    const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, {
      timeStamp: t, startTime: t - 10_000, endTime: t + 5_000, overlays: [overlay], players: [{ id: "p1", name: "Ann" }],
      metadata: { clickId: "c-1" }, score: { timeStamp: t, home: 1 }
    })
    expect(answer.status).toBe(200)
    const { momentKey } = answer.body
    const pending = await h.call("GET", `/public/moments/${momentKey}`)
    expect(pending.body).toMatchObject({ key: momentKey, eventKey, momentStatus: "processing", videoClips: [], metadata: { clickId: "c-1" } })
    expect(pending.body.score).toMatchObject({ timeStamp: t, home: 1, key: expect.any(String) })
    const ready = await eventually("the clips", async () => {
      const moment = await h.call("GET", `/public/moments/${momentKey}`)
      return moment.body.momentStatus === "processing" ? undefined : moment
    })
    expect(ready.body.momentStatus).toBe("ready")
    expect(ready.body.videoClips.map((c: { deviceID: string; startTime: number; endTime: number }) => [c.deviceID, c.startTime, c.endTime]))
      .toEqual([["camera-1", t - 10_000, t + 5_000], ["camera-2", t - 10_000, t + 5_000]])
    const event = await h.call("GET", `/public/events/${eventKey}`)
    expect(event.body.moments.map((m: { key: string }) => m.key)).toEqual([momentKey])
    expect(event.body.scoreStream.map((e: { key: string }) => e.key)).toEqual([pending.body.score.key])
    expect(event.body.moments[0].scoreStreamEntryKey).toBe(pending.body.score.key)
  })

  it("answers 206 and drops metadata over 500 bytes", async () => {
    h = await startHarness()
    const { eventKey } = await h.control.startEvent("court-1")
    const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: Date.now(), metadata: { pad: "é".repeat(250) } })
    expect(answer.status).toBe(206)
    expect(answer.body).toMatchObject({ momentKey: expect.any(String), error: expect.stringMatching(/500 bytes/) })
    const moment = await h.call("GET", `/public/moments/${answer.body.momentKey}`)
    expect(moment.body.metadata).toBeUndefined()
  })

  it("clamps the window to the last minute while open and fails a click whose footage is gone", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const { eventKey } = await h.control.startEvent("court-1")
    const before = Date.now()
    const clamped = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: before - 70_000, startTime: before - 80_000, endTime: before - 50_000 })
    const late = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: before - 120_000 })
    const after = Date.now()
    expect([clamped.status, late.status]).toEqual([200, 200])
    const clip = (await h.call("GET", `/public/moments/${clamped.body.momentKey}`)).body.videoClips[0]
    expect(clip.startTime).toBeGreaterThanOrEqual(before - 60_000)
    expect(clip.startTime).toBeLessThanOrEqual(after - 60_000)
    expect(clip.endTime).toBe(before - 50_000)
    const failed = (await h.control.state()).events[0]?.moments.find((m) => m.key === late.body.momentKey)
    expect(failed).toMatchObject({ momentStatus: "failed", videoClips: [], failure: expect.stringMatching(/last 60 s/) })
  })

  it("uses the full window once the event is closed", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const { eventKey } = await h.control.startEvent("court-1")
    await h.control.closeEvent("court-1")
    const t = Date.now() - 600_000
    const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: t, startTime: t - 5_000, endTime: t + 5_000 })
    const moment = (await h.call("GET", `/public/moments/${answer.body.momentKey}`)).body
    expect(moment.momentStatus).toBe("ready")
    expect(moment.videoClips[0]).toMatchObject({ startTime: t - 5_000, endTime: t + 5_000 })
  })

  it("answers 400 naming the field and 404 for an unknown event", async () => {
    h = await startHarness()
    const { eventKey } = await h.control.startEvent("court-1")
    const t = Date.now()
    const cases: Array<[unknown, Array<string>]> = [
      [{}, ["timeStamp"]],
      [{ timeStamp: t, startTime: t, endTime: t - 1 }, ["startTime"]],
      [{ timeStamp: t, score: { home: 1 } }, ["score.timeStamp"]],
      [{ timeStamp: t, overlays: [{ ...overlay, heightPercentOfHeight: undefined }] }, ["overlays[0].heightPercentOfHeight"]],
      [{ timeStamp: t, overlays: [overlay, { ...overlay, position: { horizontal: "middle" } }] }, ["overlays[1].position.horizontal"]]
    ]
    for (const [body, fields] of cases) {
      const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(answer), JSON.stringify(body)).toEqual(fields)
    }
    expect((await h.call("POST", "/public/events/unknown/clicks", { timeStamp: t })).status).toBe(404)
    expect((await h.control.state()).events[0]?.moments).toEqual([])
  })
})

describe("moments", () => {
  const clickOnce = async () => {
    const { eventKey } = await h.control.startEvent("court-1")
    const answer = await h.call("POST", `/public/events/${eventKey}/clicks`, { timeStamp: Date.now() })
    return answer.body.momentKey as string
  }

  it("patches present fields, answering 206 for oversized metadata", async () => {
    h = await startHarness()
    const momentKey = await clickOnce()
    const patched = await h.call("PATCH", `/public/moments/${momentKey}`, { players: [{ id: "p9" }], metadata: { note: "ace" } })
    expect(patched.status).toBe(200)
    expect((await h.call("GET", `/public/moments/${momentKey}`)).body).toMatchObject({ players: [{ id: "p9" }], metadata: { note: "ace" } })
    const oversized = await h.call("PATCH", `/public/moments/${momentKey}`, { metadata: { pad: "x".repeat(600) } })
    expect(oversized.status).toBe(206)
    expect((await h.call("GET", `/public/moments/${momentKey}`)).body.metadata).toEqual({ note: "ace" })
    expect(fieldsOf(await h.call("PATCH", `/public/moments/${momentKey}`, { score: { home: 2 } }))).toEqual(["score.timeStamp"])
  })

  it("hides another organization's moment on read (404) and forbids changing it (403)", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const momentKey = await clickOnce()
    const clipKey = (await h.call("GET", `/public/moments/${momentKey}`)).body.videoClips[0].key
    expect((await h.call("GET", `/public/moments/${momentKey}`, undefined, "token-b")).status).toBe(404)
    expect((await h.call("PATCH", `/public/moments/${momentKey}`, { players: [] }, "token-b")).status).toBe(403)
    expect((await h.call("DELETE", `/public/moments/${momentKey}`, undefined, "token-b")).status).toBe(403)
    expect((await h.call("DELETE", `/public/moments/${momentKey}/clips/${clipKey}`, undefined, "token-b")).status).toBe(403)
    expect((await h.call("GET", "/public/moments/unknown")).status).toBe(404)
  })

  it("deletes one clip, keeping the moment, then the moment", async () => {
    h = await startHarness({ clipDelayMs: 0 })
    const momentKey = await clickOnce()
    const [first, second] = (await h.call("GET", `/public/moments/${momentKey}`)).body.videoClips
    expect((await h.call("DELETE", `/public/moments/${momentKey}/clips/${first.key}`)).status).toBe(200)
    expect((await h.call("DELETE", `/public/moments/${momentKey}/clips/${first.key}`)).status).toBe(404)
    expect((await h.call("GET", `/public/moments/${momentKey}`)).body.videoClips.map((c: { key: string }) => c.key)).toEqual([second.key])
    expect((await h.call("DELETE", `/public/moments/${momentKey}`)).status).toBe(200)
    expect((await h.call("GET", `/public/moments/${momentKey}`)).status).toBe(404)
    expect((await h.control.state()).events[0]?.moments).toEqual([])
  })
})

describe("overlay preview", () => {
  it("answers a video URL for valid overlays and 400 naming the field otherwise", async () => {
    h = await startHarness()
    const ok = await h.call("POST", "/public/overlay-preview", { overlays: [overlay, { templateSource: "https://example.test/t.html", values: { text1: "" }, widthPercentOfWidth: 30, marginPercentOfHeight: 2, marginPercentOfWidth: 3 }] })
    expect(ok.status).toBe(200)
    expect(ok.body.videoURL).toMatch(new RegExp(`^${h.sim.url}/`))
    const cases: Array<[unknown, Array<string>]> = [
      [{}, ["overlays"]],
      [{ overlays: [{ heightPercentOfHeight: 10 }] }, ["overlays[0].imageSource"]],
      [{ overlays: [{ templateSource: "https://example.test/t.html", heightPercentOfHeight: 10 }] }, ["overlays[0].values"]],
      [{ overlays: [{ ...overlay, position: { vertical: "middle" } }] }, ["overlays[0].position.vertical"]],
      [{ overlays: [{ ...overlay, startTime: -1, duration: -5 }] }, ["overlays[0].startTime", "overlays[0].duration"]],
      [{ overlays: [{ ...overlay, marginPercentOfWidth: -2 }] }, ["overlays[0].marginPercentOfWidth"]]
    ]
    for (const [body, fields] of cases) {
      const answer = await h.call("POST", "/public/overlay-preview", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(answer), JSON.stringify(body)).toEqual(fields)
    }
  })
})
