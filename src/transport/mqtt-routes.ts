import type { Report } from "./mqtt-link-events.ts"
import type { MqttMessage } from "./mqtt-message.ts"
import { SharedAck } from "./mqtt-shares.ts"
import { topicMatches } from "./topic-filter.ts"

/** A stream's way in: the filters it subscribed to, and how a message reaches it. */
export interface Route {
  readonly filters: ReadonlyArray<string>
  readonly deliver: (message: MqttMessage) => void
}

/** How a stream ended: interrupted (what it holds stays unacknowledged, for the next run), or completed or failed. */
export type RouteEnd = "interrupted" | "ended"

const wants = (route: Pick<Route, "filters">, topic: string): boolean => route.filters.some((filter) => topicMatches(filter, topic))

/** The routes a message on `topic` goes to: each once, however many of its filters match. */
export const routesFor = <R extends Pick<Route, "filters">>(routes: Iterable<R>, topic: string): Array<R> =>
  [...routes].filter((route) => wants(route, topic))

/** How long a message may wait for a stream the daemon has not started yet (it may fail to start). */
export const unclaimedAckMs = 5_000

/**
 * A bound that mqtt.js makes unreachable as it stands: it hands over the next message only after
 * the previous one is acknowledged, and a waiting one is not, so one waits at a time. Kept in
 * case a message ever reaches here without holding up the next.
 */
export const maxUnclaimed = 1_000

/**
 * Hands each message to the streams that subscribed to its topic; one client carries every
 * subscription of the daemon. mqtt.js reads nothing more until the message is acknowledged, so
 * none may wait for nothing:
 * - a message no stream asked for yet waits, unacknowledged, for the first stream that
 *   subscribes to its topic, but only if it is on one of the filters the daemon's streams are
 *   still to subscribe to (`awaited`: a resumed session delivers its queue right after
 *   connecting, before the streams subscribe), and at most `unclaimedAckMs`;
 * - any other is on a filter left in the persistent session (an older config's, or a stream's
 *   that ended): acknowledged and dropped at once, or a chatty publisher on it would hold up
 *   every press behind it;
 * - a stream that ends lets go of what it holds (see mqtt-shares.ts).
 */
export class MqttRoutes {
  readonly #routes = new Set<Route>()
  readonly #holding = new Map<Route, Set<SharedAck<Route>>>()
  readonly #unclaimed: Array<MqttMessage> = []
  readonly #report: Report
  #awaited: ReadonlyArray<string>

  constructor(report: Report, awaited: ReadonlyArray<string> = []) {
    this.#report = report
    this.#awaited = awaited
  }

  route(message: MqttMessage): void {
    const routes = routesFor(this.#routes, message.topic)
    if (routes.length > 0) return this.#hand(message, routes)
    if (!this.#awaited.some((filter) => topicMatches(filter, message.topic))) return this.#drop(message, "stale")
    this.#unclaimed.push(message)
    this.#report({ _tag: "awaitingStream", topic: message.topic, forMs: unclaimedAckMs })
    // A stream that never comes (its source failed to start) must not stall the client for good.
    setTimeout(() => {
      if (!this.#unclaimed.includes(message)) return
      removeWhere(this.#unclaimed, (m) => m === message)
      this.#drop(message, "unclaimed")
    }, unclaimedAckMs).unref()
    if (this.#unclaimed.length > maxUnclaimed) this.#drop(this.#unclaimed.shift()!, "unclaimed")
  }

  /** From now on, and first what waited for it. */
  add(route: Route): void {
    // Its filters are subscribed now: what comes later on them with no stream left is not waited for.
    this.#awaited = this.#awaited.filter((filter) => !route.filters.includes(filter))
    const claimed = this.#unclaimed.filter((message) => wants(route, message.topic))
    removeWhere(this.#unclaimed, (message) => claimed.includes(message))
    this.#routes.add(route)
    for (const message of claimed) this.#hand(message, [route])
  }

  remove(route: Route, end: RouteEnd): void {
    this.#routes.delete(route)
    for (const shared of [...(this.#holding.get(route) ?? [])]) {
      if (end === "interrupted") shared.keep(route)
      else {
        this.#report({ _tag: "messageDropped", topic: shared.topic, reason: "streamEnded" })
        shared.release(route)
      }
    }
    this.#holding.delete(route)
  }

  #hand(message: MqttMessage, routes: ReadonlyArray<Route>): void {
    const shared = new SharedAck<Route>(message, routes, (route, settled) => this.#holding.get(route)?.delete(settled))
    for (const route of routes) {
      const held = this.#holding.get(route) ?? new Set()
      this.#holding.set(route, held.add(shared))
    }
    for (const route of routes) route.deliver(shared.copyFor(route))
  }

  #drop(message: MqttMessage, reason: "stale" | "unclaimed"): void {
    this.#report({ _tag: "messageDropped", topic: message.topic, reason })
    message.ack()
  }
}

const removeWhere = <A>(items: Array<A>, predicate: (item: A) => boolean): void => {
  let kept = 0
  for (const item of items) if (!predicate(item)) items[kept++] = item
  items.length = kept
}
