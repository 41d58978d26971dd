import { Layer, type Redacted } from "effect"
import type { Config } from "../config/schema.ts"
import { retentionLayer } from "../delivery/retention.ts"
import { deliveryLayer } from "./delivery-layer.ts"
import { mqttLayer } from "./mqtt-layer.ts"
import { type ChunkSourceOverride, placesLayer } from "./places-layer.ts"

/** The whole bridge for one config: sources → outbox → scheduler → service. */
export const daemonLayer = (config: Config, token: Redacted.Redacted<string>, override?: ChunkSourceOverride) =>
  placesLayer(config, override).pipe(
    Layer.provideMerge(retentionLayer(config.retention.deliveredHours)),
    Layer.provideMerge(deliveryLayer({
      baseUrl: config.service.baseUrl,
      token,
      timeoutMs: config.service.timeoutMs,
      requestsPerSecond: config.service.requestsPerSecond,
      stateDirectory: config.stateDirectory
    })),
    Layer.provide(mqttLayer(config))
  )
