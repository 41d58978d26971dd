import { Effect, Layer, Logger, ManagedRuntime, Stream } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { heldTiming } from "../../src/transport/held-messages.ts"
import { readListeningMark } from "../../src/transport/listening-mark.ts"
import { MqttConnection, type MqttMessage } from "../../src/transport/mqtt.ts"
import { type Proxy, startProxy } from "../faults/support/proxy.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { sleep } from "../support/sleep.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * Which messages the connection marks as held by the broker, against a real mosquitto: the link
 * is cut by a TCP forwarder in front of the broker (the broker stays up and queues for the
 * session), and the daemon's side is stopped and started again with the same client id.
 */
let dir: string
let broker: Mosquitto
let proxy: Proxy

beforeAll(async () => {
  dir = tempDir("mqtt-held")
  broker = await startMosquitto(dir)
  proxy = await startProxy(broker.port)
})
afterAll(async () => {
  await proxy?.close()
  await broker?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const topic = "zigbee2mqtt/held-remote"
const markFile = () => join(dir, "mqtt-listening")
const text = (m: MqttMessage) => Buffer.from(m.payload).toString()

/** The daemon's connection, through the forwarder, subscribed to `topic`. */
const startConnection = async (clientId: string) => {
  const runtime = ManagedRuntime.make(
    MqttConnection.layer({ url: proxy.url.replace(/^http:/u, "mqtt:"), clientId, reconnectPeriodMs: 200, listeningMarkFile: markFile(), streamFilters: [topic] }).pipe(
      Layer.provide(Logger.layer([]))
    )
  )
  const received: Array<MqttMessage> = []
  runtime.runFork(MqttConnection.use((mqtt) => Stream.runForEach(mqtt.subscribe([topic]), (m) => Effect.sync(() => received.push(m)))))
  const connected = () =>
    eventually("the connection to be up", async () =>
      (await runtime.runPromise(MqttConnection.use((mqtt) => mqtt.state)))._tag === "connected" ? true : undefined)
  await connected()
  const message = (payload: string) => eventually(`"${payload}" to arrive`, () => received.find((m) => text(m) === payload))
  return { runtime, received, connected, message }
}

describe("messages the broker held for the session", () => {
  let peer: MqttClient | undefined
  afterEach(async () => {
    await peer?.endAsync(true)
    peer = undefined
  })

  it("after the link dropped: held since the last packet heard before it; after a restart: since the listening mark; live ones are not", async () => {
    const clientId = `held-${process.pid}`
    const first = await startConnection(clientId)
    peer = await connectAsync(broker.url, { clientId: `held-peer-${process.pid}`, clean: true })
    const beforeLive = Date.now()
    await eventually("the subscription to take effect", async () => {
      await peer!.publishAsync(topic, "live-1", { qos: 1 })
      await sleep(50)
      return first.received.some((m) => text(m) === "live-1") ? true : undefined
    })
    expect(first.received.find((m) => text(m) === "live-1")!.held).toBeUndefined()

    // The link drops while the daemon runs; the broker keeps queueing for the session.
    await proxy.close()
    const cutAt = Date.now()
    await eventually("the drop to be noticed", async () =>
      (await first.runtime.runPromise(MqttConnection.use((mqtt) => mqtt.state)))._tag !== "connected" ? true : undefined)
    await peer.publishAsync(topic, "during-drop-1", { qos: 1 })
    await peer.publishAsync(topic, "during-drop-2", { qos: 1 })
    await proxy.open()
    const [held1, held2] = [await first.message("during-drop-1"), await first.message("during-drop-2")]
    for (const m of [held1, held2]) {
      // The last packet heard before the cut: live-1 or a later answer to a ping.
      expect(m.held?.since, `${text(m)}: held since the last sign of the broker before the drop`).toBeGreaterThanOrEqual(beforeLive)
      expect(m.held!.since!).toBeLessThanOrEqual(cutAt)
    }
    // Past the first grace after the reconnect: a press now is live.
    await sleep(heldTiming.firstMs + 200)
    const beforeLive2 = Date.now()
    await peer.publishAsync(topic, "live-2", { qos: 1 })
    expect((await first.message("live-2")).held).toBeUndefined()

    // A clean stop notes when it last heard from the broker; the next run reads it.
    await first.runtime.dispose()
    const stoppedAt = Date.now()
    const mark = readListeningMark(markFile())
    expect(mark, "the listening mark of the stopped run").toBeGreaterThanOrEqual(beforeLive2)
    expect(mark!).toBeLessThanOrEqual(stoppedAt)
    await peer.publishAsync(topic, "while-stopped", { qos: 1 })
    const second = await startConnection(clientId)
    try {
      expect((await second.message("while-stopped")).held).toEqual({ since: mark })
    } finally {
      await second.runtime.dispose()
    }
  }, 30_000)
})
