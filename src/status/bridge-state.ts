import { Effect, Layer, Stream } from "effect"
import type { Reading } from "../domain/reading.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"

export interface BridgeStateOptions {
  readonly topicPrefix: string
  /** Also publish each place's current reading (not retained) at <prefix>/<place>/reading. */
  readonly publishReadings: boolean
}

/** How long shutdown waits for the broker to take `offline`; the last will covers the rest. */
const offlineTimeout = "2 seconds"

/** A reading as published: receive time apart, so a repeated frame is not a new message. */
const shown = ({ receivedAt: _receivedAt, ...fields }: Reading) => JSON.stringify(fields)

/**
 * The bridge's presence on the broker, zigbee2mqtt style: a retained
 * `<prefix>/bridge/state` = `online` on every (re)connect — a broker that
 * restarted without persistence, or that delivered our last will after a
 * network blip, would otherwise keep saying `offline` — and `offline` on an
 * orderly shutdown, before the connection is released. A crash leaves it to
 * the last will configured in the MQTT layer.
 */
export const bridgeStateLayer = (options: BridgeStateOptions) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const mqtt = yield* MqttConnection
    const topic = `${options.topicPrefix}/bridge/state`
    const publishOnline = Effect.logDebug(`MQTT ${topic} = online`).pipe(
      Effect.andThen(mqtt.publish(topic, "online", { retain: true, qos: 1 })),
      Effect.catch((e) => Effect.logWarning(`could not publish ${topic} = online: ${e.message}`))
    )
    yield* Effect.addFinalizer(() =>
      mqtt.publish(topic, "offline", { retain: true, qos: 1 }).pipe(
        Effect.timeoutOption(offlineTimeout),
        Effect.catch((e) => Effect.logWarning(`could not publish ${topic} = offline: ${e.message}`))
      )
    )
    yield* Effect.forkScoped(mqtt.stateChanges.pipe(
      Stream.filter((state) => state._tag === "connected"),
      Stream.runForEach(() => publishOnline)
    ))
    if (!options.publishReadings) return
    const bus = yield* BridgeEvents
    const events = yield* bus.subscribe
    const lastShown = new Map<string, string>()
    yield* Effect.forkScoped(Stream.runForEach(events, (event) => {
      if (event._tag !== "Reading") return Effect.void
      const body = shown(event.reading)
      if (lastShown.get(event.place) === body) return Effect.void
      return Effect.gen(function*() {
        // Stateless and frequent (clocks tick): QoS 0, never retained, and skipped
        // while offline — the client would queue them and replay stale scores.
        if ((yield* mqtt.state)._tag !== "connected") return
        lastShown.set(event.place, body)
        yield* mqtt.publish(`${options.topicPrefix}/${event.place}/reading`, JSON.stringify(event.reading), { qos: 0 }).pipe(
          Effect.timeoutOption("1 second"),
          Effect.ignore
        )
      })
    }))
  }))
