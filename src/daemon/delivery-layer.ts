import { Layer, type Redacted } from "effect"
import { ClipFollower } from "../clip-follow-up/clip-follower.ts"
import type { FollowUpSettings } from "../domain/follow-up.ts"
import { Outbox, type OutboxOpenError } from "../delivery/outbox.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import { Scheduler } from "../delivery/scheduler.ts"
import type { LiveScoreOrder } from "../delivery/score-lanes.ts"
import { serviceDeliverer } from "../delivery/service-deliverer.ts"
import { LatestBoard } from "../clicks/board-extras.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { ServiceClient } from "../service/client.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"

export interface DeliverySettings {
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  readonly timeoutMs: number
  readonly requestsPerSecond: number
  readonly stateDirectory: string
  /** See `DelivererOptions.backlogAfterMs`. */
  readonly backlogAfterMs?: number
  /** The order a live event's waiting entries leave in (see score-lanes.ts). */
  readonly liveScoreOrder?: LiveScoreOrder
  /** Accepted clicks are followed until their clips exist; absent: not followed. */
  readonly followUps?: FollowUpSettings
}

/**
 * Everything from the outbox to the wire: outbox, rate budget, service client,
 * active-event tracker, deliverer and scheduler, plus the events bus that the
 * demo and status page watch.
 */
export const deliveryLayer = (
  settings: DeliverySettings,
  /** The outbox over `settings.stateDirectory`; tests wrap it to make its disk slow. */
  outbox: Layer.Layer<Outbox, OutboxOpenError> = Outbox.layer({
    stateDirectory: settings.stateDirectory,
    ...(settings.followUps === undefined ? {} : { followUps: settings.followUps })
  })
) => {
  const client = ServiceClient.layer({ baseUrl: settings.baseUrl, token: settings.token, timeoutMs: settings.timeoutMs })
  const shared = Layer.mergeAll(
    outbox,
    RateBudget.layer({ requestsPerSecond: settings.requestsPerSecond }),
    ActiveEvents.layer,
    BridgeEvents.layer,
    LatestBoard.layer,
    client
  )
  const scheduler = Scheduler.layer(settings.liveScoreOrder === undefined ? {} : { liveScoreOrder: settings.liveScoreOrder }).pipe(Layer.provide(serviceDeliverer(settings.backlogAfterMs === undefined ? {} : { backlogAfterMs: settings.backlogAfterMs })))
  const follower = settings.followUps === undefined ? Layer.empty : ClipFollower.layer(settings.followUps)
  return Layer.merge(scheduler, follower).pipe(Layer.provideMerge(shared))
}
