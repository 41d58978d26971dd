import { Effect, FiberSet } from "effect"
import { MqttConnection } from "./mqtt.ts"

/** Longest an aside message may take; a broker that does not answer by then is not waited for. */
const asideTimeout = "2 seconds"

/**
 * Publishes beside the caller's work, never in its way: feedback to a button's LED or a courtside
 * screen is a courtesy, so a broker outage must not hold up the next press or clip. QoS 0, at most
 * 2 s, failures ignored; each in a fiber of the caller's scope (closing it interrupts what is still
 * being sent), and a fiber that ends leaves the set.
 */
export const makeAsidePublisher = Effect.gen(function*() {
  const mqtt = yield* MqttConnection
  const fibers = yield* FiberSet.make()
  return (topic: string, payload: string): Effect.Effect<void> =>
    FiberSet.run(fibers, mqtt.publish(topic, payload, { qos: 0 }).pipe(Effect.timeout(asideTimeout), Effect.ignore)).pipe(Effect.asVoid)
})
