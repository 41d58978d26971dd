import type { Report } from "./mqtt-link-events.ts"
import type { MqttMessage } from "./mqtt-message.ts"
import { topicMatches } from "./topic-filter.ts"

/** A stream's way in: the filters it subscribed to, and how a message reaches it. */
export interface Route {
  readonly filters: ReadonlyArray<string>
  readonly deliver: (message: MqttMessage) => void
}

const wants = (route: Pick<Route, "filters">, topic: string): boolean => route.filters.some((filter) => topicMatches(filter, topic))

/** The routes a message on `topic` goes to: each once, however many of its filters match. */
export const routesFor = <R extends Pick<Route, "filters">>(routes: Iterable<R>, topic: string): Array<R> =>
  [...routes].filter((route) => wants(route, topic))

/** How long a message no stream claims may hold up the client before it is acknowledged and dropped. */
export const unclaimedAckMs = 5_000

/**
 * A bound that mqtt.js makes unreachable as it stands: it hands over the next message only after
 * the previous one is acknowledged, and an unclaimed one is not, so one waits at a time. Kept in
 * case a message ever reaches here without holding up the next.
 */
export const maxUnclaimed = 1_000

/**
 * Hands each message to the streams that subscribed to its topic; one client carries every
 * subscription of the daemon. A message no stream asked for yet (a resumed session delivers its
 * queue right after connecting, before the streams subscribe) waits, unacknowledged, for the
 * first stream that subscribes to its topic.
 */
export class MqttRoutes {
  readonly #routes = new Set<Route>()
  readonly #unclaimed: Array<MqttMessage> = []
  readonly #report: Report

  constructor(report: Report) {
    this.#report = report
  }

  route(message: MqttMessage): void {
    const routes = routesFor(this.#routes, message.topic)
    for (const route of routes) route.deliver(message)
    if (routes.length > 0) return
    this.#unclaimed.push(message)
    // A subscription left over from an older config must not stall the client forever.
    setTimeout(() => {
      if (!this.#unclaimed.includes(message)) return
      removeWhere(this.#unclaimed, (m) => m === message)
      this.#report({ _tag: "unclaimedDropped", topic: message.topic })
      message.ack()
    }, unclaimedAckMs).unref()
    if (this.#unclaimed.length > maxUnclaimed) {
      const dropped = this.#unclaimed.shift()!
      this.#report({ _tag: "unclaimedDropped", topic: dropped.topic })
      dropped.ack()
    }
  }

  /** From now on, and first what waited for it. */
  add(route: Route): void {
    const claimed = this.#unclaimed.filter((message) => wants(route, message.topic))
    removeWhere(this.#unclaimed, (message) => claimed.includes(message))
    for (const message of claimed) route.deliver(message)
    this.#routes.add(route)
  }

  remove(route: Route): void {
    this.#routes.delete(route)
  }
}

const removeWhere = <A>(items: Array<A>, predicate: (item: A) => boolean): void => {
  let kept = 0
  for (const item of items) if (!predicate(item)) items[kept++] = item
  items.length = kept
}
