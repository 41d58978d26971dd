import { Clock, Context, Effect, Layer, Option } from "effect"
import type { OutboxReadError } from "../delivery/outbox.ts"
import { ClipFollowUps, OutboxHealth, OutboxItems } from "../delivery/outbox.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import { ruleFamily } from "../domain/rule-catalog.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { ServiceClient } from "../service/client.ts"
import type { Timeline } from "../timeline/timeline-model.ts"
import type { UnknownPlace } from "../timeline/unknown-place.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { LinkRecords } from "./link-records.ts"
import { defaultThresholds } from "./liveness.ts"
import { PlaceTracker } from "./place-tracker.ts"
import { placeTimeline } from "./place-timeline.ts"
import { makeRollbackNotice } from "./rollback-notice.ts"
import { readSnapshot } from "./snapshot-reader.ts"
import { followStatus } from "./status-follower.ts"
import { makeStatusMetrics } from "./status-metrics.ts"
import type { StatusOptions } from "./status-options.ts"
import type { StatusSnapshot } from "./status-snapshot.ts"

export type { StatusOptions, StatusPlace } from "./status-options.ts"

/**
 * Follows the bridge's events and reads the delivery snapshots to answer, at
 * any moment, whether each place is live and why not: the status page,
 * `/status.json`, `/healthz` and `/metrics` all read it.
 */
export class BridgeStatus extends Context.Service<BridgeStatus, {
  readonly snapshot: Effect.Effect<StatusSnapshot>
  /** Prometheus text exposition. */
  readonly metrics: Effect.Effect<string>
  /** The place's current event, from its recent outbox items (see src/timeline/). */
  timeline(placeKey: string): Effect.Effect<Timeline, UnknownPlace | OutboxReadError>
}>()("scorebridge/status/BridgeStatus") {
  static readonly layer = (options: StatusOptions) => Layer.effect(BridgeStatus, make(options))
}

/** Items read back at start for a pool's last finishes: several races' worth, as the finish store reads them. */
const finishLookback = 100

/**
 * One tracker per place; after a restart each shows the last entry from the outbox, not "none
 * yet", and a pool its last finishes with their clicks. An unreadable outbox leaves them out (the
 * snapshot names it).
 */
const restoredTrackers = Effect.fnUntraced(function*(options: StatusOptions) {
  const outbox = yield* OutboxItems
  const trackers = new Map(options.places.map((p) => [p.key, new PlaceTracker(p.key)]))
  for (const place of options.places) {
    const tracker = trackers.get(place.key)!
    const last = yield* outbox.lastOf(place.key, "score").pipe(Effect.orElseSucceed(() => Option.none()))
    if (Option.isSome(last)) tracker.restore(last.value)
    if (place.sport !== undefined && ruleFamily(place.sport) === "race") {
      tracker.finishes.restore(yield* outbox.recent(place.key, finishLookback).pipe(Effect.orElseSucceed(() => [])))
    }
  }
  return trackers
})

const make = Effect.fnUntraced(function*(options: StatusOptions) {
  const bus = yield* BridgeEvents
  const mqtt = yield* MqttConnection
  // Only these: the caller's Clock (a TestClock) stays the caller's.
  const services = Context.pick(OutboxItems, ClipFollowUps, OutboxHealth, RateBudget, ActiveEvents, ServiceClient)(
    yield* Effect.context<OutboxItems | ClipFollowUps | OutboxHealth | RateBudget | ActiveEvents | ServiceClient>()
  )
  const thresholds = options.thresholds ?? defaultThresholds
  const startedAt = yield* Clock.currentTimeMillis
  const metrics = makeStatusMetrics({ followsClips: options.clips?.followUp === true, venue: options.venue })
  const trackers = yield* restoredTrackers(options)
  const links = new LinkRecords(options.buttons)

  const rollback = options.rollbackFile === undefined ? Effect.succeed(null) : makeRollbackNotice(options.rollbackFile)
  // Said once at start-up, for the journal; the page and /metrics show it for as long as the record is there.
  const rolledBack = yield* rollback
  if (rolledBack !== null) yield* Effect.logWarning(rolledBack.text)

  // Subscribed before this layer returns, so the pipelines started after it lose nothing.
  const stream = yield* bus.subscribe
  yield* followStatus({ trackers, links, metrics }, stream, options.mqtt ? mqtt.stateChanges : undefined).pipe(
    Effect.provideContext(services)
  )

  const snapshot = readSnapshot({ options, trackers, links, thresholds, startedAt, rollback }).pipe(Effect.provideContext(services))
  return BridgeStatus.of({
    snapshot,
    metrics: Effect.flatMap(snapshot, metrics.render),
    timeline: (placeKey) => placeTimeline(options.places, placeKey).pipe(Effect.provideContext(services))
  })
})
