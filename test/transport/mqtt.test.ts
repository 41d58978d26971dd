import { Effect, Redacted, Stream } from "effect"
import type { MqttClient } from "mqtt"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { MqttConnection, type MqttConnectionOptions, type MqttMessage } from "../../src/transport/mqtt.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { type Daemon, startDaemon as startDaemonOn, startPeer as startPeerOn, text, untilSubscribed as untilSubscribedTo } from "./mqtt-harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

let dir: string
let broker: Mosquitto

beforeAll(async () => {
  dir = tempDir("mqtt")
  broker = await startMosquitto(dir)
})
afterAll(async () => {
  await broker?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const startDaemon = (overrides: Partial<MqttConnectionOptions> = {}) => startDaemonOn(broker, overrides)
const startPeer = () => startPeerOn(broker)
const untilSubscribed = (peer: MqttClient, daemon: Daemon, topic: string) => untilSubscribedTo(peer, topic, daemon.received)

describe("MqttConnection with a real mosquitto", () => {
  let daemon: Daemon | undefined
  let peer: MqttClient | undefined
  afterEach(async () => {
    await peer?.endAsync(true)
    await daemon?.runtime.dispose()
    daemon = peer = undefined
  })

  it("hands each stream only the messages matching its filters, payload intact and stamped", async () => {
    daemon = await startDaemon()
    const d = daemon
    const court2: Array<MqttMessage> = []
    d.subscribe(["venue/court1/#"])
    d.subscribe(["venue/+/score"], court2)
    await d.connected()
    peer = await startPeer()
    await untilSubscribed(peer, d, "venue/court1/probe")

    const before = Date.now()
    const bytes = Uint8Array.from([0x16, 0x00, 0xff, 0x0d, 0x0a])
    await peer.publishAsync("venue/court1/button", Buffer.from(bytes), { qos: 1 })
    await peer.publishAsync("venue/court2/score", "2-1", { qos: 1 })
    const button = await eventually("the button message", () => d.received.find((m) => m.topic === "venue/court1/button"))
    await eventually("the court 2 score", () => court2.find((m) => m.topic === "venue/court2/score"))

    expect([...button.payload]).toEqual([...bytes])
    expect(button.retained).toBe(false)
    expect(button.receivedAt).toBeGreaterThanOrEqual(before)
    expect(button.receivedAt).toBeLessThanOrEqual(Date.now())
    expect(d.received.some((m) => m.topic === "venue/court2/score")).toBe(false)
    expect(court2.map((m) => m.topic)).toEqual(["venue/court2/score"])
  })

  it("marks retained messages replayed on subscribe, and live ones not", async () => {
    peer = await startPeer()
    await peer.publishAsync("venue/retained/state", "old state", { qos: 1, retain: true })
    daemon = await startDaemon()
    const d = daemon
    d.subscribe(["venue/retained/state"])
    const replayed = await eventually("the retained message", () => d.received[0])
    expect(text(replayed)).toBe("old state")
    expect(replayed.retained).toBe(true)

    await peer.publishAsync("venue/retained/state", "new state", { qos: 1, retain: true })
    const live = await eventually("the live message", () => d.received[1])
    expect(text(live)).toBe("new state")
    expect(live.retained).toBe(false)
    await peer.publishAsync("venue/retained/state", "", { qos: 1, retain: true }) // clear it for other tests
  })

  it("publishes, retained when asked", async () => {
    daemon = await startDaemon()
    await daemon.connected()
    await daemon.runtime.runPromise(
      MqttConnection.use((mqtt) => mqtt.publish("venue/bridge/state", "online", { retain: true }))
    )
    await daemon.runtime.runPromise(
      MqttConnection.use((mqtt) => mqtt.publish("venue/bridge/event", Uint8Array.from([1, 2, 3]), { qos: 0 }))
    )
    // A late subscriber sees the retained one: it reached the broker with the retain flag.
    peer = await startPeer()
    const seen: Array<{ topic: string; payload: string; retain: boolean }> = []
    peer.on("message", (topic, payload, packet) => seen.push({ topic, payload: payload.toString(), retain: packet.retain }))
    await peer.subscribeAsync("venue/bridge/state", { qos: 1 })
    await eventually("the retained state", () => seen[0])
    expect(seen[0]).toEqual({ topic: "venue/bridge/state", payload: "online", retain: true })
    await peer.publishAsync("venue/bridge/state", "", { qos: 1, retain: true })
  })

  it("receives a QoS 1 message published while it was cut off by a broker restart", async () => {
    daemon = await startDaemon({ clientId: `daemon-persistent-${process.pid}` })
    const d = daemon
    d.subscribe(["venue/clicks/#"])
    await d.connected()
    peer = await startPeer()
    await untilSubscribed(peer, d, "venue/clicks/probe")
    await peer.endAsync(true)

    await broker.stop()
    // Wait for a refused reconnect attempt: the next one is a full reconnect period away, time
    // enough to restart the broker and publish before the daemon is back.
    const seen = d.states.length
    await eventually("a failed reconnect", () =>
      d.states.slice(seen).some((s, i, after) => s._tag === "connecting" && after[i + 1]?._tag === "disconnected")
        ? true
        : undefined)
    await broker.start()
    peer = await startPeer()
    await peer.publishAsync("venue/clicks/court1", "while away", { qos: 1 })
    expect((await d.state())._tag).not.toBe("connected") // else this test would prove nothing

    const late = await eventually("the message queued in the session", () =>
      d.received.find((m) => m.topic === "venue/clicks/court1"))
    expect(text(late)).toBe("while away")
    expect(d.logs.some((line) => line.includes("session resumed"))).toBe(true)
  })

  it("gets what was queued while the daemon itself was down, even before it subscribes again", async () => {
    const clientId = `daemon-restarted-${process.pid}`
    const first = await startDaemon({ clientId })
    first.subscribe(["venue/buttons/#"])
    await first.connected()
    peer = await startPeer()
    await untilSubscribed(peer, first, "venue/buttons/probe")
    await first.runtime.dispose() // shutdown must not unsubscribe: the session keeps collecting

    await peer.publishAsync("venue/buttons/court1", "pressed while down", { qos: 1 })
    // As the daemon does: it names the filters its streams will subscribe to.
    daemon = await startDaemon({ clientId, streamFilters: ["venue/buttons/#"] })
    const d = daemon
    await d.connected()
    // The resumed session delivers at once; nobody is subscribed yet, so the connection keeps it
    // for the stream to come (it would be dropped if its filter were not one the daemon awaits).
    await eventually("the queued message to wait for its stream", () =>
      d.logs.find((line) => line.includes("MQTT message on venue/buttons/court1 waits for its stream")))
    d.subscribe(["venue/buttons/#"])
    const kept = await eventually("the message queued for the session", () => d.received[0])
    expect(kept.topic).toBe("venue/buttons/court1")
    expect(text(kept)).toBe("pressed while down")
    expect(d.logs.some((line) => line.includes("session resumed"))).toBe(true)
  })

  it("subscribes again when the broker lost the session", async () => {
    daemon = await startDaemon({ clientId: `daemon-forgotten-${process.pid}` })
    const d = daemon
    d.subscribe(["venue/forgotten"])
    await d.connected()
    peer = await startPeer()
    await untilSubscribed(peer, d, "venue/forgotten")
    await peer.endAsync(true)

    await broker.stop()
    rmSync(join(dir, "mosquitto.db"), { force: true })
    await broker.start()
    await eventually("a reconnect with a new session", () => d.logs.some((l) => l.includes("session new")) && d.logs.filter((l) => l.includes("MQTT connected")).length >= 2 ? true : undefined)

    peer = await startPeer()
    const before = d.received.length
    await untilSubscribed(peer, d, "venue/forgotten")
    expect(d.received.length).toBeGreaterThan(before)
  })

  it("shuts down promptly while no broker is reachable, reporting why it is down meanwhile", async () => {
    daemon = await startDaemon({ url: `mqtt://127.0.0.1:${await freePort()}` })
    const d = daemon
    const down = await eventually("a refused connection", () => d.states.find((s) => s._tag === "disconnected"))
    expect(down).toMatchObject({ reason: expect.stringContaining("ECONNREFUSED"), retryInMs: 1_000 })
    const started = Date.now()
    await d.runtime.dispose()
    daemon = undefined
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it("keeps the password and URL credentials out of logs and status", async () => {
    const url = broker.url.replace("mqtt://", "mqtt://scorer:url-secret@")
    daemon = await startDaemon({ url, username: "scorer", password: Redacted.make("pw-secret") })
    await daemon.connected()
    await broker.restart()
    await eventually("the reconnect", () => (daemon!.logs.filter((l) => l.includes("MQTT connected")).length >= 2 ? true : undefined))
    const everything = JSON.stringify(daemon.states) + daemon.logs.join("\n")
    expect(daemon.logs.some((l) => l.includes("MQTT disconnected"))).toBe(true)
    expect(everything).not.toContain("secret")
  })
})

describe("acknowledging only what is stored (manualAck)", () => {
  it("a QoS 1 message not yet acknowledged when the daemon dies is delivered again to its next run", async () => {
    const clientId = `daemon-ack-${process.pid}`
    const topic = "venue/ack/button"
    const first = await startDaemon({ clientId })
    await first.connected()
    const held: Array<MqttMessage> = []
    first.runtime.runFork(MqttConnection.use((mqtt) =>
      Stream.runForEach(mqtt.subscribe([topic], { manualAck: true }), (m) => Effect.sync(() => held.push(m)))
    ))
    const peer = await startPeer()
    try {
      // The subscription is in place once a message arrives; acknowledge that one.
      await eventually("the subscription", async () => {
        await peer.publishAsync(topic, "probe", { qos: 1 })
        await new Promise((r) => setTimeout(r, 50))
        const probe = held.find((m) => text(m) === "probe")
        probe?.ack()
        return probe
      })
      await new Promise((r) => setTimeout(r, 200))
      for (const m of held) m.ack()
      await peer.publishAsync(topic, "press-1", { qos: 1 })
      await eventually("press-1 at the first daemon", async () => (held.some((m) => text(m) === "press-1") ? true : undefined))
      // Dies without acknowledging press-1 (never stored).
      await first.runtime.dispose()

      const second = await startDaemon({ clientId })
      const again: Array<MqttMessage> = []
      second.runtime.runFork(MqttConnection.use((mqtt) =>
        Stream.runForEach(mqtt.subscribe([topic], { manualAck: true }), (m) => Effect.sync(() => {
          again.push(m)
          m.ack()
        }))
      ))
      const redelivered = await eventually("press-1 redelivered", async () => again.find((m) => text(m) === "press-1"), { timeoutMs: 8_000 })
      // The broker's DUP flag and the same packet id: what lets the outbox recognise a press it stored.
      const original = held.find((m) => text(m) === "press-1")!
      expect(original.redelivered).toBe(false)
      expect(redelivered.redelivered).toBe(true)
      expect(redelivered.receivedAs).toBeDefined()
      expect(redelivered.receivedAs).toBe(original.receivedAs)
      await second.runtime.dispose()
    } finally {
      await peer.endAsync(true)
    }
  }, 20_000)
})
