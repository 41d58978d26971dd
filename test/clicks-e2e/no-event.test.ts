import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { nextClientId, place, sport, startBroker, startDaemon, startService, untilHeard, waitForLog } from "./harness.ts"

describe("a press with no event on the place", () => {
  const res = resources()
  afterEach(() => res.release())

  it("makes no request to the service, and the operator is told in the log and on the feedback topic", async () => {
    const dir = tempDir("clicks-no-event", res)
    const service = await startService(res, 20)
    const broker = await startBroker(res, dir)
    const remoteTopic = "zigbee2mqtt/court1-remote"
    const feedbackTopic = "scorebridge/court-1/feedback"
    const feedback: Array<Record<string, unknown>> = []
    broker.peer.on("message", (topic, payload) => {
      if (topic === feedbackTopic) feedback.push(JSON.parse(payload.toString()) as Record<string, unknown>)
    })
    await broker.peer.subscribeAsync(feedbackTopic, { qos: 1 })

    const daemon = await startDaemon(res, daemonConfig({
      service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
      stateDirectory: tempDir("clicks-no-event-state", res),
      mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [{
        key: place,
        sport,
        actions: [{ source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" }],
        clicks: { beforeSeconds: 10, afterSeconds: 5, feedbackTopic }
      }]
    }))
    const lookups = `/public/places/${place}/activeEventKey`
    await eventually("the refresh to learn that no event runs", async () =>
      (await service.control.requests({ method: "GET", pathPrefix: lookups, status: 404 })).length > 0 ? true : undefined)
    await untilHeard(daemon, "single on remote/probe: no action configured", () =>
      broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "probe_single" }), { qos: 1 }))

    const pressedFrom = Date.now()
    await broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const told = await eventually("feedback on the MQTT topic", () => feedback.at(0))
    expect(told).toMatchObject({ place, gesture: "single", button: "1", status: "no-event", text: expect.stringContaining("no event is running") })
    expect(told["pressedAt"]).toBeGreaterThanOrEqual(pressedFrom)
    await waitForLog(daemon, `${place}: single on remote/1 ignored — no event is running on this place`)

    // A press handled after it: the ignored one is done with, and a click from it would be in the outbox by now.
    await untilHeard(daemon, "single on remote/probe: no action configured", () =>
      broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "probe_single" }), { qos: 1 }))
    expect(await daemon.outbox()).toEqual({})
    const requests = await service.control.requests()
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.filter((r) => !(r.method === "GET" && r.path === lookups)).map((r) => `${r.method} ${r.path}`)).toEqual([])
    expect(feedback).toHaveLength(1)
  })
})
