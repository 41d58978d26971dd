import { connectAsync, type MqttClient } from "mqtt"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { basketballLine, startStatusDaemon, token } from "./status-daemon.ts"

interface Received {
  readonly topic: string
  readonly payload: string
  readonly retain: boolean
}

const prefix = "venue-test"
const stateTopic = `${prefix}/bridge/state`
let peers = 0

describe("MQTT bridge state on a real mosquitto", () => {
  const fixtures = resources()
  const res = resources()
  let broker: Mosquitto
  const clients: Array<MqttClient> = []

  /** A fresh subscriber: what it gets at once on `topic` is the broker's retained message. */
  const watch = async (topics: ReadonlyArray<string>) => {
    const client = await connectAsync(broker.url, { clientId: `bridge-state-peer-${process.pid}-${++peers}`, clean: true, reconnectPeriod: 200 })
    clients.push(client)
    const received: Array<Received> = []
    client.on("message", (topic, payload, packet) => received.push({ topic, payload: payload.toString(), retain: packet.retain }))
    if (topics.length > 0) await client.subscribeAsync([...topics], { qos: 1 })
    return { client, received }
  }
  /** The retained state as a new subscriber sees it; waits (bounded) while the broker has none. */
  const retainedState = async (expected: "online" | "offline") => {
    const { client, received } = await watch([stateTopic])
    const seen = () => received.findLast((m) => m.topic === stateTopic && m.retain)?.payload
    // A busy machine may take a while to reconnect after a broker restart: ask again with a new subscriber.
    return eventually(`${stateTopic} retained as ${expected}`, async () => {
      if (seen() === expected) return expected
      await client.unsubscribeAsync(stateTopic)
      received.length = 0
      await client.subscribeAsync(stateTopic, { qos: 1 })
      return undefined
    }, { timeoutMs: 15_000, intervalMs: 200 }).catch(() => seen() ?? "(nothing retained)")
  }

  beforeAll(async () => {
    broker = await startMosquitto(tempDir("bridge-state-broker", fixtures))
    fixtures.defer(() => broker.stop())
  })
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.endAsync(true)
    await res.release()
  })
  afterAll(() => fixtures.release())

  it("retains online while running, online again after a broker restart, and offline after shutdown", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live"], mqtt: { url: broker.url, topicPrefix: prefix } })
    expect(await retainedState("online")).toBe("online")

    // A stale `offline` (a last will delivered after a network blip) must not outlive the next connect.
    const { client } = await watch([])
    await client.publishAsync(stateTopic, "offline", { retain: true, qos: 1 })
    await broker.restart()
    expect(await retainedState("online"), "online republished after the reconnect").toBe("online")

    await daemon.stop()
    expect(await retainedState("offline")).toBe("offline")
  }, 30_000)

  it("publishes each court's reading on change, not retained, when status.publishReadings is on", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live"], mqtt: { url: broker.url, topicPrefix: prefix, publishReadings: true } })
    const { received } = await watch([`${prefix}/court-1/reading`])
    expect(await retainedState("online")).toBe("online")
    for (let n = 0; n < 3; n++) daemon.scoreboard.write(basketballLine(7, 5, 2, "04:31"))
    const reading = await eventually("a reading on MQTT", () => received.find((m) => m.topic === `${prefix}/court-1/reading`))
    expect(reading.retain).toBe(false)
    expect(JSON.parse(reading.payload)).toMatchObject({ home: 7, away: 5, period: 2, clock: "04:31", receivedAt: expect.any(Number) })
    daemon.scoreboard.write(basketballLine(8, 5, 2, "04:20"))
    await eventually("the changed reading", () => received.find((m) => m.payload.includes('"home":8')))
    // The same board written three times is one message.
    expect(received.filter((m) => m.payload.includes('"home":7'))).toHaveLength(1)
    expect(received.map((m) => m.payload).join("\n")).not.toContain(token)
  }, 20_000)
})
