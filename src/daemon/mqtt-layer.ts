import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Redacted, Stream } from "effect"
import type { Config } from "../config/schema.ts"
import { resolveSecret } from "../config/secrets.ts"
import { MqttConnection } from "../transport/mqtt.ts"

/**
 * The daemon's MQTT connection when the config names a broker. Without one, no
 * source may use MQTT (the config check guarantees it), so the connection
 * that stands in reports itself as not configured and delivers nothing.
 */
export const mqttLayer = (config: Config) => {
  const mqtt = config.mqtt
  if (mqtt === undefined) return notConfigured
  return Layer.unwrap(Effect.gen(function*() {
    const password = mqtt.password === undefined ? undefined : yield* resolveSecret(mqtt.password, "MQTT password")
    const tls = mqtt.tls === undefined ? undefined : {
      ...(mqtt.tls.ca === undefined ? {} : { ca: readFileSync(mqtt.tls.ca, "utf8") }),
      ...(mqtt.tls.cert === undefined ? {} : { cert: readFileSync(mqtt.tls.cert, "utf8") }),
      ...(mqtt.tls.key === undefined ? {} : { key: Redacted.make(readFileSync(mqtt.tls.key, "utf8")) }),
      rejectUnauthorized: mqtt.tls.rejectUnauthorized
    }
    return MqttConnection.layer({
      url: mqtt.url,
      clientId: mqtt.clientId,
      ...(mqtt.username === undefined ? {} : { username: mqtt.username }),
      ...(password === undefined ? {} : { password }),
      ...(tls === undefined ? {} : { tls }),
      will: { topic: `${mqtt.topicPrefix}/bridge/state`, payload: "offline", retain: true },
      listeningMarkFile: join(config.stateDirectory, "mqtt-listening"),
      streamFilters: streamFilters(config)
    })
  }))
}

/** What the config's button sources and scoreboards subscribe to: a message on any other filter the session holds is stale. */
const streamFilters = (config: Config): ReadonlyArray<string> => [
  ...new Set([
    ...(config.buttons ?? []).flatMap((button) => button.mqtt?.topics ?? []),
    ...config.places.flatMap((place) => place.scoreboard?.mqtt?.topics ?? [])
  ])
]

const notConfigured = Layer.succeed(MqttConnection, MqttConnection.of({
  subscribe: () => Stream.empty,
  publish: () => Effect.void,
  state: Effect.succeed({ _tag: "disconnected", target: "(no broker configured)", reason: "no mqtt: block in the config", retryInMs: 0 }),
  stateChanges: Stream.empty
}))
