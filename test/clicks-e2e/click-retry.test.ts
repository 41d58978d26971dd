import { afterEach, describe, expect, it } from "vitest"
import { resources, type Resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { clicksOn, nextClientId, place, sport, startBroker, startDaemon, startService, untilHeard, waitForClicks, waitForLog } from "./harness.ts"

const remoteTopic = "zigbee2mqtt/court1-remote"

/** A daemon with one zigbee2mqtt remote on the place, an event live, and the remote's subscription in place. */
const startBridge = async (res: Resources) => {
  const dir = tempDir("clicks-retry", res)
  const service = await startService(res, 20)
  const broker = await startBroker(res, dir)
  const { eventKey } = await service.control.startEvent(place, { homeTeam: "Home", awayTeam: "Away" })
  const daemon = await startDaemon(res, daemonConfig({
    service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory: tempDir("clicks-retry-state", res),
    mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
    buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
    places: [{ key: place, sport, actions: [{ source: "remote", gesture: "single", do: "highlight" }], clicks: { beforeSeconds: 10, afterSeconds: 5 } }]
  }))
  await eventually("the daemon to learn the live event", async () =>
    (await service.control.requests({ method: "GET", pathPrefix: `/public/places/${place}/activeEventKey`, status: 200 })).length > 0
      ? true
      : undefined)
  await untilHeard(daemon, "double on remote/1: no action configured", () =>
    broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "double" }), { qos: 1 }))
  const press = () => broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
  const moments = async () => (await service.control.state()).events.find((e) => e.key === eventKey)!.moments
  return { service, eventKey, daemon, press, moments }
}

describe("a click the service does not answer cleanly", () => {
  const res = resources()
  afterEach(() => res.release())

  it("503 once: sent again, and exactly one moment is made", async () => {
    const { service, eventKey, daemon, press, moments } = await startBridge(res)
    await service.control.injectFault({ kind: "status", status: 503, pathPrefix: `/public/events/${eventKey}/clicks`, count: 1 })
    await press()
    // The transient back-off starts at about a second.
    const [refused, accepted] = await waitForClicks(service, eventKey, 2, 5_000)
    expect([refused!.status, accepted!.status]).toEqual([503, 200])
    expect(accepted!.body).toEqual(refused!.body)

    // Delivered is final: the outbox sends a settled click never again, so the count now is the count.
    await eventually("the click settled", async () => ((await daemon.outbox())["click/delivered"] === 1 ? true : undefined))
    expect((await clicksOn(service, eventKey)).length).toBe(2)
    const made = await moments()
    expect(made.map((m) => m.key)).toEqual([(accepted!.response as { momentKey: string }).momentKey])
    expect(made[0]!.metadata).toEqual((accepted!.body as { metadata: unknown }).metadata)
    expect(await daemon.outbox()).toEqual({ "click/delivered": 1 })
  })

  it("made, but the answer lost on the way: found in the event by its click id, not sent again", async () => {
    const { service, eventKey, daemon, press, moments } = await startBridge(res)
    await service.control.injectFault({ kind: "reset-after-apply", pathPrefix: `/public/events/${eventKey}/clicks`, count: 1 })
    await press()
    const [applied] = await waitForClicks(service, eventKey, 1)
    expect(applied!.fault).toBe("reset-after-apply")
    await waitForLog(daemon, "was already received by the service: not resent")

    await eventually("the click settled", async () => ((await daemon.outbox())["click/delivered"] === 1 ? true : undefined))
    expect((await clicksOn(service, eventKey)).length).toBe(1)
    expect((await moments()).map((m) => m.metadata)).toEqual([(applied!.body as { metadata: unknown }).metadata])
    expect(await daemon.outbox()).toEqual({ "click/delivered": 1 })
  })
})
