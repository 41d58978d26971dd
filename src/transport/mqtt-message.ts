import type { MqttClient } from "mqtt"
import type { Held, HeldMessages } from "./held-messages.ts"
import type { MqttArrivals } from "./mqtt-arrivals.ts"
import type { Report } from "./mqtt-link-events.ts"
import { receivedAsOf, Redeliveries, strictlyIncreasing } from "./redeliveries.ts"

export interface MqttMessage {
  readonly topic: string
  readonly payload: Uint8Array
  /** ms since epoch: when the PUBLISH's bytes arrived on the connection (mqtt-arrivals.ts), not when mqtt.js handed it over. */
  readonly receivedAt: number
  /** Set for a retained message replayed on subscribe: old state, not a fresh event. */
  readonly retained: boolean
  /**
   * With `manualAck`, the broker's QoS 1 acknowledgement waits for this call: make it once the
   * message is durably handled, so a crash before that gets it redelivered. Idempotent.
   */
  readonly ack: () => void
  /**
   * QoS 1: which message this is to the broker (packet id, topic, payload digest), to store with
   * what it produced; `redelivered` is the broker's DUP flag. A redelivery whose `receivedAs` is
   * already stored was handled by a process that died before acknowledging it.
   */
  readonly receivedAs?: string
  readonly redelivered: boolean
  /**
   * Set when the broker held the message for our session while we were not listening (link or
   * daemon down): it was published after `held.since` (the last we heard from the broker
   * before), not at `receivedAt` (see held-messages.ts).
   */
  readonly held?: Held
}

/**
 * mqtt.js's `handleMessage` for the connection's life: makes each PUBLISH a message and hands it
 * to `deliver`, or drops it as a redelivery of one already acknowledged (redeliveries.ts).
 *
 * mqtt.js sends the PUBACK of a QoS 1 message only when the callback runs, and handles the next
 * incoming packet after it: the callback is the message's `ack`, made once it is stored, which
 * is what makes "nothing lost".
 */
export const receiveMessages = (
  arrivals: MqttArrivals,
  held: HeldMessages,
  report: Report,
  deliver: (message: MqttMessage) => void
): MqttClient["handleMessage"] => {
  const redeliveries = new Redeliveries()
  const stamp = strictlyIncreasing()
  return (packet, callback) => {
    // When its bytes came, not when mqtt.js got to it (after the previous message was stored).
    const arrivedAt = arrivals.arrivalOf(packet) ?? arrivals.now()
    const wasHeld = held.arrived(arrivedAt)
    // mqtt.js gives a PUBLISH's payload as a Buffer (a string only for packets it builds itself).
    const payload = typeof packet.payload === "string" ? Buffer.from(packet.payload) : packet.payload
    const identity = Redeliveries.identity(packet.topic, payload)
    if (redeliveries.isRedelivery(packet.dup, packet.messageId, identity)) {
      report({ _tag: "redeliveryDropped", topic: packet.topic })
      held.handled(arrivals.now())
      return callback()
    }
    let acked = false
    const ack = () => {
      if (acked) return
      acked = true
      if (packet.qos > 0) redeliveries.acknowledged(packet.messageId, identity)
      if (wasHeld !== undefined) held.handled(arrivals.now())
      callback()
    }
    deliver({
      receivedAt: stamp(arrivedAt),
      topic: packet.topic,
      payload,
      retained: packet.retain,
      ack,
      redelivered: packet.dup,
      ...(packet.qos > 0 && packet.messageId !== undefined ? { receivedAs: receivedAsOf(packet.messageId, identity) } : {}),
      ...(wasHeld === undefined ? {} : { held: wasHeld })
    })
  }
}
