import { Effect, Layer, Logger, ManagedRuntime, Stream } from "effect"
import { afterEach } from "vitest"
import { connectAsync, type MqttClient } from "mqtt"
import { format } from "node:util"
import type { LinkState } from "../../src/domain/received.ts"
import { MqttConnection, type MqttConnectionOptions, type MqttMessage, type SubscribeOptions } from "../../src/transport/mqtt.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import type { Mosquitto } from "../../scripts/support/mosquitto.ts"

let clientCount = 0

/** The daemon's side: one MqttConnection to `broker`, its logs, and the states it went through. */
export const startDaemon = async (broker: Pick<Mosquitto, "url">, overrides: Partial<MqttConnectionOptions> = {}) => {
  const logs: Array<string> = []
  const collector = Logger.make(({ message }) => logs.push(format(...(Array.isArray(message) ? message : [message]))))
  const runtime = ManagedRuntime.make(
    MqttConnection.layer({ url: broker.url, clientId: `daemon-${++clientCount}-${process.pid}`, ...overrides }).pipe(
      Layer.provide(Logger.layer([collector]))
    )
  )
  const states: Array<LinkState> = []
  runtime.runFork(MqttConnection.use((mqtt) => Stream.runForEach(mqtt.stateChanges, (s) => Effect.sync(() => states.push(s)))))
  const received: Array<MqttMessage> = []
  /** A stream of `topics` run until the daemon ends; what it gets goes to `into`. */
  const subscribe = (topics: ReadonlyArray<string>, into: Array<MqttMessage> = received, options?: SubscribeOptions) =>
    runtime.runFork(
      MqttConnection.use((mqtt) => Stream.runForEach(mqtt.subscribe(topics, options), (m) => Effect.sync(() => into.push(m))))
    )
  const state = () => runtime.runPromise(MqttConnection.use((mqtt) => mqtt.state))
  const connected = () => eventually("the daemon to connect", async () => ((await state())._tag === "connected" ? true : undefined))
  return { runtime, logs, states, received, subscribe, state, connected }
}
export type Daemon = Awaited<ReturnType<typeof startDaemon>>

/** Another party on the broker (a button, a console), with a clean session. */
export const startPeer = (broker: Mosquitto): Promise<MqttClient> =>
  connectAsync(broker.url, { clientId: `peer-${++clientCount}-${process.pid}`, clean: true })

export const text = (message: MqttMessage | undefined) => (message ? Buffer.from(message.payload).toString() : undefined)

/**
 * Publishes "probe" on `topic` until `into` has one sent now: proves the daemon's subscription is
 * in place at the broker. A probe from before (an earlier session) does not count. Each probe is
 * acknowledged (a manual-ack stream's too).
 */
export const untilSubscribed = async (peer: MqttClient, topic: string, into: Array<MqttMessage>) => {
  const probes = () => into.filter((m) => m.topic === topic && text(m) === "probe")
  const before = probes().length
  const arrived = () => {
    const now = probes()
    for (const probe of now) probe.ack()
    return now.length > before ? true : undefined
  }
  await eventually("the daemon's subscription to take effect", async () => {
    await peer.publishAsync(topic, "probe", { qos: 1 })
    // Not there within a moment: the subscription is not in place yet, and this probe is lost.
    return eventually("the probe", arrived, { timeoutMs: 50 }).catch(() => undefined)
  })
}

/** The daemons and peers a test file starts, each ended after every test (peers first). */
export const endedAfterEach = () => {
  const daemons: Array<Daemon> = []
  const peers: Array<MqttClient> = []
  afterEach(async () => {
    for (const peer of peers.splice(0)) await peer.endAsync(true)
    for (const daemon of daemons.splice(0)) await daemon.runtime.dispose()
  })
  return { daemons, peers }
}
