import { Effect, Stream } from "effect"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MqttConnection, type MqttMessage } from "../../src/transport/mqtt.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { type Daemon, endedAfterEach, startDaemon, startPeer, text, untilSubscribed } from "./mqtt-harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * What mqtt.js's one-message-at-a-time reading asks of the connection, against a real mosquitto:
 * mqtt.js hands over the next message only once the previous one is acknowledged, so no message
 * may wait for nothing, and none may be acknowledged before every stream it went to stored it.
 */
let dir: string
let broker: Mosquitto

beforeAll(async () => {
  dir = tempDir("mqtt-acks")
  broker = await startMosquitto(dir)
})
afterAll(async () => {
  await broker?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const { daemons, peers } = endedAfterEach()
const daemonOf = async (...args: Parameters<typeof startDaemon> extends [unknown, ...infer Rest] ? Rest : never) => {
  const daemon = await startDaemon(broker, ...args)
  daemons.push(daemon)
  return daemon
}
const peer = async () => {
  const p = await startPeer(broker)
  peers.push(p)
  return p
}

/** A manual-ack stream as the daemon's button sources run it: stored at once, then acknowledged; noted with when it came. */
const pressesOf = (daemon: Daemon, topic: string) => {
  const got: Array<MqttMessage> = []
  const at = new Map<string, number>()
  daemon.runtime.runFork(MqttConnection.use((mqtt) =>
    Stream.runForEach(mqtt.subscribe([topic], { manualAck: true }), (m) =>
      Effect.sync(() => {
        at.set(text(m)!, Date.now())
        got.push(m)
        m.ack()
      }))
  ))
  return { got, at }
}

describe("MQTT acknowledgements with a real mosquitto", () => {
  it("a chatty publisher on a filter an older config left in the session does not delay presses", async () => {
    const clientId = `acks-stale-${process.pid}`
    const stale = "venue/old-remote/#"
    const button = "venue/stale-test/button"
    // An older config subscribed to `stale`; the persistent session keeps it after that run.
    const older = await daemonOf({ clientId })
    const olderGot: Array<MqttMessage> = []
    older.subscribe([stale], olderGot)
    await older.connected()
    const publisher = await peer()
    await untilSubscribed(publisher, "venue/old-remote/probe", olderGot)
    await older.runtime.dispose()
    daemons.splice(daemons.indexOf(older), 1)

    const daemon = await daemonOf({ clientId, streamFilters: [button] })
    const presses = pressesOf(daemon, button)
    await daemon.connected()
    await untilSubscribed(publisher, button, presses.got)
    const press = async (name: string) => {
      const sentAt = Date.now()
      await publisher.publishAsync(button, name, { qos: 1 })
      return { name, sentAt }
    }
    const latencies = async (names: ReadonlyArray<string>) => {
      const sent = []
      for (const name of names) sent.push(await press(name))
      await eventually(`${names.join(", ")} to reach the stream`, () => (names.every((n) => presses.at.has(n)) ? true : undefined), { timeoutMs: 15_000 })
      return sent.map((s) => presses.at.get(s.name)! - s.sentAt)
    }
    const quiet = await latencies(["quiet-1", "quiet-2", "quiet-3", "quiet-4", "quiet-5"])

    const chatty = await peer()
    let chattered = 0
    const chatter = setInterval(() => {
      chattered++
      void chatty.publishAsync("venue/old-remote/temperature", `{"t":${chattered}}`, { qos: 1 }).catch(() => {})
    }, 20)
    try {
      await eventually("the chatty publisher to be going", () => (chattered >= 10 ? true : undefined))
      const chattering = await latencies(["busy-1", "busy-2", "busy-3", "busy-4", "busy-5"])
      process.stderr.write(`stale-filter press latencies: quiet ${quiet.join(",")} ms; beside a chatty publisher ${chattering.join(",")} ms\n`)
      // Unchanged: a stale message held mqtt.js 5 s before, so each press came seconds late.
      expect(Math.max(...chattering)).toBeLessThan(Math.max(...quiet) + 250)
    } finally {
      clearInterval(chatter)
    }
    expect(daemon.logs.filter((l) => l.includes("venue/old-remote/temperature dropped: no stream of this bridge subscribes to it"))).toHaveLength(1)
  }, 60_000)

  it("a message on the filters of two streams is acknowledged to the broker only once both acknowledged it", async () => {
    const clientId = `acks-overlap-${process.pid}`
    const topic = "venue/overlap/button"
    const first = await daemonOf({ clientId })
    const everything: Array<MqttMessage> = []
    const stored: Array<MqttMessage> = []
    first.subscribe(["venue/overlap/#"], everything) // acknowledges on receipt
    first.subscribe([topic], stored, { manualAck: true }) // acknowledges once stored: never, here
    await first.connected()
    const publisher = await peer()
    await untilSubscribed(publisher, topic, stored)
    await publisher.publishAsync(topic, "press-1", { qos: 1 })
    await eventually("press-1 at both streams", () =>
      everything.some((m) => text(m) === "press-1") && stored.some((m) => text(m) === "press-1") ? true : undefined)
    // The manual-ack stream dies before storing it: the broker must still have it.
    await first.runtime.dispose()
    daemons.splice(daemons.indexOf(first), 1)

    const second = await daemonOf({ clientId, streamFilters: [topic] })
    const again = pressesOf(second, topic)
    const redelivered = await eventually("press-1 given again to the next run", () => again.got.find((m) => text(m) === "press-1"), { timeoutMs: 8_000 })
    expect(redelivered.redelivered).toBe(true)
  }, 30_000)

  it("a stream that ends holding an unacknowledged message does not stall the connection", async () => {
    const ending = "venue/ends/button"
    const other = "venue/ends/score"
    const daemon = await daemonOf()
    const endingGot: Array<MqttMessage> = []
    const ended = daemon.runtime.runPromise(MqttConnection.use((mqtt) =>
      Stream.runForEach(
        mqtt.subscribe([ending], { manualAck: true }).pipe(Stream.takeUntil((m) => text(m) === "last")),
        (m) => Effect.sync(() => endingGot.push(m))
      )
    ))
    const otherGot: Array<MqttMessage> = []
    daemon.subscribe([other], otherGot)
    await daemon.connected()
    const publisher = await peer()
    await untilSubscribed(publisher, ending, endingGot)
    await untilSubscribed(publisher, other, otherGot)

    // Its stream takes "last" and ends without acknowledging it.
    await publisher.publishAsync(ending, "last", { qos: 1 })
    await ended
    await publisher.publishAsync(other, "after", { qos: 1 })
    // Before, mqtt.js waited for the acknowledgement until the keepalive (30 s) dropped the link.
    await eventually("the next message on the other stream", () => otherGot.find((m) => text(m) === "after"), { timeoutMs: 3_000 })
    expect(daemon.logs.some((l) => l.includes("venue/ends/button dropped: the stream it was handed to ended before handling it"))).toBe(true)
  }, 30_000)
})

describe("stamps while a message waits for its acknowledgement", () => {
  it("a press that comes while the previous one is being stored is stamped at its arrival, not when mqtt.js takes it", async () => {
    const topic = "venue/stamps/button"
    const daemon = await daemonOf({ streamFilters: [topic] })
    const got: Array<MqttMessage> = []
    const storeMs = 600
    daemon.runtime.runFork(MqttConnection.use((mqtt) =>
      Stream.runForEach(mqtt.subscribe([topic], { manualAck: true }), (m) =>
        Effect.sync(() => {
          got.push(m)
          // A slow disk: "first" is acknowledged only once stored, storeMs later.
          if (text(m) === "first") setTimeout(m.ack, storeMs)
          else m.ack()
        }))
    ))
    await daemon.connected()
    const publisher = await peer()
    await untilSubscribed(publisher, topic, got)
    await publisher.publishAsync(topic, "first", { qos: 1 })
    await eventually("the first press", () => got.find((m) => text(m) === "first"))
    const secondSentAt = Date.now()
    await publisher.publishAsync(topic, "second", { qos: 1 })
    const second = await eventually("the second press", () => got.find((m) => text(m) === "second"))
    const lag = second.receivedAt - secondSentAt
    expect(lag, "the second press's stamp after its publish (ms)").toBeLessThan(storeMs / 3)
    expect(lag).toBeGreaterThanOrEqual(0)
  }, 30_000)
})
