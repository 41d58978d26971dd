import { Layer, type Redacted } from "effect"
import type { Config } from "../config/schema.ts"
import { clockSkewLayer } from "../delivery/clock-skew.ts"
import { retentionLayer } from "../delivery/retention.ts"
import { eventRefreshLayer } from "../delivery/event-refresh.ts"
import { buttonsLayer } from "./buttons-layer.ts"
import { deliveryLayer } from "./delivery-layer.ts"
import { clipFeedbackLayer } from "../clip-follow-up/clip-feedback.ts"
import { followUpSettings } from "../clip-follow-up/follow-up-settings.ts"
import { mqttLayer } from "./mqtt-layer.ts"
import { type ChunkSourceOverride, placesLayer } from "./places-layer.ts"
import { statusLayer } from "../status/status-layer.ts"
import { LoopDelay } from "../observability/loop-delay.ts"

export interface DaemonOptions {
  /** Replaces scoreboard inputs (the demo's simulated console). */
  readonly override?: ChunkSourceOverride
  /** How often the live event of a place with buttons is looked up, in idle rate slots. */
  readonly eventRefreshMs?: number
}

/** The whole bridge for one config: sources → outbox → scheduler → service. */
export const daemonLayer = (config: Config, token: Redacted.Redacted<string>, options: DaemonOptions = {}) => {
  const placesWithButtons = config.places.filter((p) => (p.actions ?? []).length > 0).map((p) => p.key)
  return Layer.mergeAll(
    placesLayer(config, options.override),
    buttonsLayer(config),
    eventRefreshLayer(placesWithButtons, options.eventRefreshMs),
    retentionLayer(config.retention.deliveredHours),
    clipFeedbackLayer(config),
    clockSkewLayer()
  ).pipe(
    // Provided, not merged: the status model subscribes before any pipeline publishes, and says `offline` before MQTT closes.
    Layer.provideMerge(statusLayer(config)),
    Layer.provideMerge(deliveryLayer({
      baseUrl: config.service.baseUrl,
      token,
      timeoutMs: config.service.timeoutMs,
      requestsPerSecond: config.service.requestsPerSecond,
      liveScoreOrder: config.service.liveScoreOrder,
      stateDirectory: config.stateDirectory,
      ...(config.clips.followUp ? { followUps: followUpSettings(config.clips, config.service.requestsPerSecond) } : {})
    })),
    // Below the status server: /metrics reads it when it answers (status-metrics.ts).
    Layer.provideMerge(LoopDelay.layer()),
    Layer.provideMerge(mqttLayer(config))
  )
}
