import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { Clock, Effect, Queue, Redacted, Result, Stream } from "effect"
import { MqttClient } from "mqtt"
import type { LinkState } from "../../domain/received.ts"
import { clientOptions, describeBroker, endClient } from "../../transport/mqtt-client.ts"
import { brokerAddress, type BrokerTls, openBrokerSocket } from "../../transport/mqtt-socket.ts"
import { redactedUrl } from "../config/secret-redaction.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { outsideVenue } from "../steps/venue-network.ts"
import { readSetupSecret } from "../setup-token.ts"
import { captureTopics, type MqttArrival } from "./mqtt-press.ts"
import type { ConfiguredLinks, MqttBlock } from "./configured-links.ts"

/** The broker a capture listens to and how it logs in: the daemon's settings, or only a URL the page gave. */
export interface CaptureBroker {
  readonly url: string
  readonly clientId: string
  readonly username?: string
  readonly password?: Redacted.Redacted<string>
  readonly tls?: BrokerTls
}

// Never the daemon's id: the broker would hand the capture the daemon's persistent session and drop the daemon.
const captureClientId = (base: string) => `${base.slice(0, 48)}-setup-${randomBytes(4).toString("hex")}`

const tlsOf = (tls: MqttBlock["tls"]): BrokerTls | undefined => tls === undefined ? undefined : {
  ...(tls.ca === undefined ? {} : { ca: readFileSync(tls.ca, "utf8") }),
  ...(tls.cert === undefined ? {} : { cert: readFileSync(tls.cert, "utf8") }),
  ...(tls.key === undefined ? {} : { key: Redacted.make(readFileSync(tls.key, "utf8")) }),
  rejectUnauthorized: tls.rejectUnauthorized
}

const fromConfig = Effect.fnUntraced(function*(environment: SetupEnvironment, mqtt: MqttBlock) {
  const password = mqtt.password === undefined
    ? undefined
    : yield* readSetupSecret(environment, mqtt.password, "mqtt.password").pipe(Effect.mapError((error) => error.message))
  const tls = yield* Effect.try({
    try: () => tlsOf(mqtt.tls),
    catch: (cause) => `the broker's TLS files cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`
  })
  return {
    url: mqtt.url,
    clientId: captureClientId(mqtt.clientId),
    ...(mqtt.username === undefined ? {} : { username: mqtt.username }),
    ...(password === undefined ? {} : { password }),
    ...(tls === undefined ? {} : { tls })
  } satisfies CaptureBroker
})

/** The page's broker: on the venue's network or this machine, with only what its URL carries. */
const pageBroker = (asked: string): Effect.Effect<CaptureBroker, string> => {
  if (!/^mqtts?:\/\/[^/\s]+/u.test(asked)) return Effect.fail("the broker's address must be mqtt://host:port or mqtts://host:port")
  const host = Effect.try({ try: () => new URL(asked).hostname, catch: () => "the broker's address must be mqtt://host:port or mqtts://host:port" })
  return Effect.flatMap(host, (hostname) => {
    const outside = outsideVenue(hostname)
    return outside === undefined ? Effect.succeed({ url: asked, clientId: captureClientId("scorebridge") }) : Effect.fail(outside)
  })
}

/**
 * The config's broker with its credentials (as the daemon connects), unless the page names
 * another broker: that one gets only what its URL carries, never the config's username or
 * password (the secret follows its destination), and only on the venue's network. The page
 * shows the config's URL with its password as ***: that URL back is the config's broker.
 */
export const chooseBroker = (environment: SetupEnvironment, links: ConfiguredLinks, asked: string | undefined): Effect.Effect<CaptureBroker, string> => {
  const configured = links.mqtt
  const configuredUrl = configured !== undefined && Result.isSuccess(configured) ? configured.success.url : undefined
  const isConfigured = configuredUrl !== undefined && (asked === configuredUrl || asked === redactedUrl(configuredUrl))
  if (asked !== undefined && !isConfigured) return pageBroker(asked)
  if (configured === undefined) return Effect.fail("there is no broker yet: the config has no mqtt: block; give the broker's address (mqtt://host:1883)")
  return Result.isFailure(configured) ? Effect.fail(configured.failure) : fromConfig(environment, configured.success)
}

/** A clean session: the capture leaves nothing queued at the broker when it ends. */
const captureClient = (broker: CaptureBroker) => {
  const address = brokerAddress(broker.url)
  const options = clientOptions({ ...broker }, 2_000, address)
  return new MqttClient(() => openBrokerSocket(address, broker.tls), { ...options, clean: true, resubscribe: false, manualConnect: true })
}

/**
 * Ends the client so that it never connects again. mqtt.js's end() alone leaves a pending
 * CONNACK timer (a broker that took the connection but never answered), whose close then
 * schedules a reconnect: the deleted capture would log in again every 12 s, forever.
 */
const endForGood = (client: MqttClient) =>
  Effect.suspend(() => {
    client.options.reconnectPeriod = 0
    client.removeAllListeners("connect")
    return endClient(client)
  })

/**
 * Every message on the capture topics while the stream runs (QoS 0: a press missed is pressed
 * again), stamped on arrival; the link's state as the status page words it.
 */
export const brokerArrivals = (broker: CaptureBroker, onState: (state: LinkState) => void): Stream.Stream<MqttArrival> =>
  Stream.callback<MqttArrival>((queue) =>
    Effect.gen(function*() {
      const clock = yield* Clock.Clock
      const target = describeBroker(broker.url)
      onState({ _tag: "connecting", target })
      const made = yield* Effect.acquireRelease(
        Effect.sync(() => {
          try {
            return captureClient(broker)
          } catch (cause) {
            return cause instanceof Error ? cause.message : String(cause)
          }
        }),
        (client) => typeof client === "string" ? Effect.void : endForGood(client)
      )
      if (typeof made === "string") return onState({ _tag: "disconnected", target, reason: made, retryInMs: 0 })
      const client = made
      // Connected once the broker granted the subscriptions: a press from then on is heard.
      client.on("connect", () => {
        client.subscribe([...captureTopics], { qos: 0 }, (error) => {
          onState(error ? { _tag: "disconnected", target, reason: error.message, retryInMs: 2_000 } : { _tag: "connected", target })
        })
      })
      client.on("message", (topic, payload, packet) => {
        Queue.offerUnsafe(queue, { topic, payload, retained: packet.retain, receivedAt: clock.currentTimeMillisUnsafe() })
      })
      client.on("error", (error) => onState({ _tag: "disconnected", target, reason: error.message, retryInMs: 2_000 }))
      client.on("offline", () => onState({ _tag: "disconnected", target, reason: "the broker cannot be reached", retryInMs: 2_000 }))
      client.connect()
    })
  )
