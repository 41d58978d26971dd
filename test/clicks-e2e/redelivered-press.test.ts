import { mkdirSync } from "node:fs"
import { Effect } from "effect"
import { connectAsync } from "mqtt"
import { afterEach, describe, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { receivedAsOf, Redeliveries } from "../../src/transport/redeliveries.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { nextClientId, place, sport, startBroker, startDaemon, startService, waitForLog } from "./harness.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * kill -9 after a press is stored and before its PUBACK: the broker resends it (DUP, same
 * packet id) to the next process, which must not make a second highlight of it. The dying
 * process is played by a plain MQTT client under the daemon's client id that takes the press
 * and never acknowledges it, and by the outbox item that process had written.
 */
describe("a press redelivered after the daemon died before acknowledging it", () => {
  const res = resources()
  afterEach(() => res.release())

  const remoteTopic = "zigbee2mqtt/court1-remote"
  const press = JSON.stringify({ action: "single" })

  /** The broker holds `press` unacknowledged for `clientId`'s session; resolves with its packet id. */
  const pressHeldByDeadProcess = async (url: string, clientId: string, publish: () => Promise<unknown>) => {
    const dying = await connectAsync(url, { clientId, clean: false, reconnectPeriod: 0 })
    await dying.subscribeAsync(remoteTopic, { qos: 1 })
    const messageId = new Promise<number>((resolve) => {
      // Never calling back: mqtt.js sends no PUBACK.
      dying.handleMessage = (packet) => {
        if (packet.cmd === "publish" && packet.messageId !== undefined) resolve(packet.messageId)
      }
    })
    await publish()
    const id = await messageId
    await dying.endAsync(true)
    return id
  }

  const run = async (storedBeforeTheKill: boolean) => {
    const dir = tempDir("clicks-redelivery", res)
    const service = await startService(res, 20)
    const { eventKey } = await service.control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: "match" })
    const broker = await startBroker(res, dir)
    const clientId = nextClientId("daemon")
    const stateDirectory = tempDir("clicks-redelivery-state", res)
    mkdirSync(stateDirectory, { recursive: true })

    const messageId = await pressHeldByDeadProcess(broker.mosquitto.url, clientId, () =>
      broker.peer.publishAsync(remoteTopic, press, { qos: 1 }))
    if (storedBeforeTheKill) {
      const receivedAs = receivedAsOf(messageId, Redeliveries.identity(remoteTopic, Buffer.from(press)))
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const outbox = yield* wholeOutbox
        yield* outbox.append({ place, kind: "click", payload: clickPayload(Date.now()), dedupeKey: "click:stored-before-the-kill", createdAt: Date.now(), receivedAs })
      }).pipe(Effect.provide(Outbox.layer({ stateDirectory })))))
    }

    const daemon = await startDaemon(res, daemonConfig({
      service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
      stateDirectory,
      mqtt: { url: broker.mosquitto.url, clientId },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [{ key: place, sport, actions: [{ source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" }] }]
    }))
    return { daemon, service, eventKey }
  }

  it("is recognised by the item the dead process stored: acknowledged, no second click", async () => {
    const { daemon } = await run(true)
    await waitForLog(daemon, "MQTT redelivery on zigbee2mqtt/court1-remote of a press already stored (before a restart): not stored again")
    await eventually("the stored click settled", async () =>
      Object.keys(await daemon.outbox()).some((k) => k.startsWith("click/") && k !== "click/pending") ? true : undefined)
    const clicks = Object.entries(await daemon.outbox()).filter(([k]) => k.startsWith("click/")).reduce((n, [, c]) => n + c, 0)
    expect(clicks).toBe(1)
  })

  it("never stored (killed before the write): the redelivery is the press, and makes its click", async () => {
    const { daemon, service, eventKey } = await run(false)
    await eventually("the click at the simulator", async () =>
      (await service.control.requests({ method: "POST", pathPrefix: `/public/events/${eventKey}/clicks`, status: 200 })).length === 1 ? true : undefined)
    expect(daemon.logs.filter((l) => l.includes("MQTT redelivery"))).toEqual([])
    expect(await daemon.outbox()).toEqual({ "click/delivered": 1 })
  })
})
