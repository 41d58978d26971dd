import type { ClientSubscribeCallback } from "mqtt"
import type { Report } from "./mqtt-link-events.ts"

/** The part of mqtt.js's client that subscribing needs (a fake one in the unit tests). */
export interface Subscriber {
  readonly connected: boolean
  subscribe(filters: Array<string>, options: { readonly qos: 1 }, callback: ClientSubscribeCallback): unknown
}

/**
 * Which filters the broker must have for the daemon's session, and getting them there. Kept here
 * rather than left to mqtt.js (its resubscribing is off, see mqtt-client.ts): a filter asked for
 * while the link is down is sent once it is up, and one refused or failed is asked for again.
 *
 * A filter once asked for stays wanted for the process's lifetime: unsubscribing when a stream
 * ends would make the broker drop what arrives while the daemon restarts. What the broker
 * granted is kept across reconnects that resume the session, and forgotten with the session.
 */
export class MqttSubscriptions {
  readonly #wanted = new Set<string>()
  readonly #granted = new Set<string>() // acknowledged by the broker in the current session
  readonly #requested = new Set<string>() // SUBSCRIBE sent on this connection, SUBACK pending
  readonly #client: Subscriber
  readonly #report: Report

  constructor(client: Subscriber, report: Report) {
    this.#client = client
    this.#report = report
  }

  want(filters: Iterable<string>): void {
    for (const filter of filters) this.#wanted.add(filter)
    this.#sync()
  }

  connected(sessionPresent: boolean): void {
    // Without a session the broker forgot our subscriptions: all of them must be sent again.
    if (!sessionPresent) this.#granted.clear()
    // What the previous connection asked went with it, answered or not: asked again.
    this.#requested.clear()
    this.#sync()
  }

  closed(): void {
    this.#requested.clear()
  }

  #sync(): void {
    if (!this.#client.connected) return
    const missing = [...this.#wanted].filter((filter) => !this.#granted.has(filter) && !this.#requested.has(filter))
    if (missing.length === 0) return
    for (const filter of missing) this.#requested.add(filter)
    this.#client.subscribe(missing, { qos: 1 }, (err, grants) => {
      for (const filter of missing) this.#requested.delete(filter)
      if (err) return this.#report({ _tag: "subscribeFailed", filters: missing, message: err.message })
      const refused = (grants ?? []).filter((grant) => grant.qos >= 128).map((grant) => grant.topic)
      const granted = (grants ?? []).filter((grant) => grant.qos < 128).map((grant) => grant.topic)
      for (const filter of granted) this.#granted.add(filter)
      // Only from here does the broker keep what is published on them for this session: "connected" is not yet "listening".
      if (granted.length > 0) this.#report({ _tag: "subscribed", filters: granted })
      if (refused.length > 0) this.#report({ _tag: "subscribeFailed", filters: refused, message: "refused by the broker" })
    })
  }
}
