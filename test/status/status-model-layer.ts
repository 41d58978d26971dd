import { Effect, Layer, Redacted, Stream, SubscriptionRef } from "effect"
import { BridgeEvents } from "../../src/bus/bridge-events.ts"
import { Outbox, type OutboxOptions } from "../../src/delivery/outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import type { LinkState } from "../../src/domain/received.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import { MqttConnection } from "../../src/transport/mqtt.ts"

/**
 * The status model on real parts (bus, outbox on disk, rate budget at 2 requests/s, active
 * events); the broker link is a SubscriptionRef the test sets, and the service is never reached.
 */
export const statusModelLayer = (
  broker: SubscriptionRef.SubscriptionRef<LinkState>,
  stateDirectory: string,
  statusOptions: StatusOptions,
  outboxOptions: Omit<OutboxOptions, "stateDirectory"> = {}
) => {
  const mqtt = Layer.succeed(MqttConnection, MqttConnection.of({
    subscribe: () => Stream.empty,
    publish: () => Effect.void,
    state: SubscriptionRef.get(broker),
    stateChanges: SubscriptionRef.changes(broker)
  }))
  const parts = Layer.mergeAll(
    Outbox.layer({ stateDirectory, ...outboxOptions }),
    RateBudget.layer({ requestsPerSecond: 2 }),
    ActiveEvents.layer,
    BridgeEvents.layer,
    ServiceClient.layer({ baseUrl: "http://127.0.0.1:9", token: Redacted.make("unused-token") }),
    mqtt
  )
  return BridgeStatus.layer(statusOptions).pipe(Layer.provideMerge(parts))
}
