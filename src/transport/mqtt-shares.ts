import type { MqttMessage } from "./mqtt-message.ts"

/**
 * One message handed to several streams (their filters overlap): the broker is acknowledged once
 * every one of them acknowledged its copy, so that a stream acknowledging on receipt does not
 * acknowledge a message another stream has not stored yet.
 *
 * A stream that ends while holding its copy: if it was interrupted (the daemon stopping), the
 * message is kept from the broker for good, which gives it again to the next run; if it completed
 * or failed, its copy is let go as if acknowledged (nothing in this run will handle it, and
 * mqtt.js reads nothing more until the message is acknowledged).
 */
export class SharedAck<Holder> {
  readonly #message: MqttMessage
  readonly #waiting: Set<Holder>
  readonly #settled: (holder: Holder, shared: SharedAck<Holder>) => void
  #kept = false

  /** `settled`: told when a holder is done with its copy, however. */
  constructor(message: MqttMessage, holders: Iterable<Holder>, settled: (holder: Holder, shared: SharedAck<Holder>) => void) {
    this.#message = message
    this.#waiting = new Set(holders)
    this.#settled = settled
  }

  get topic(): string {
    return this.#message.topic
  }

  /** The copy `holder` gets: acknowledging it is that holder's share. */
  copyFor(holder: Holder): MqttMessage {
    return { ...this.#message, ack: () => this.release(holder) }
  }

  /** `holder` is done with it (acknowledged, or ended without being interrupted). Idempotent. */
  release(holder: Holder): void {
    if (!this.#waiting.delete(holder)) return
    this.#settled(holder, this)
    if (this.#waiting.size === 0 && !this.#kept) this.#message.ack()
  }

  /** `holder` was interrupted holding it: never acknowledged in this run. */
  keep(holder: Holder): void {
    this.#kept = true
    this.release(holder)
  }
}
