import { createHash } from "node:crypto"

/**
 * QoS 1 messages this connection has already acknowledged, one per packet id (the broker reuses
 * an id only after our PUBACK, so there are never more than 65,535 to remember).
 *
 * A broker that goes down between receiving our PUBACK and saving it (a mosquitto restart)
 * sends the message again after the reconnect, flagged DUP. It was stored before it was
 * acknowledged, so storing it again would make a second click or entry with a new receive
 * time — a duplicate no dedupe key can catch. A DUP with the id, topic and payload of a message
 * already acknowledged is that redelivery: acknowledge it again and drop it. A DUP we never
 * acknowledged (or after a daemon restart, which forgets) is processed as usual.
 *
 * Each id keeps a 64-bit fingerprint of its identity in arrays sized once for all ids (576 kB),
 * not the identity string in a Map: the Map grew with every message until all ids had come
 * round, to 9.8 MB of heap, and heap snapshots of the garbage fault test showed its strings as
 * the only live objects growing with the input. Two identities share a fingerprint with a chance
 * of 2^-64 (8 bytes of a SHA-256); under one id, that would drop one DUP.
 */
export class Redeliveries {
  // Index = packet id (1..65535). `known` tells an id never acknowledged from a fingerprint of 0.
  readonly #known = new Uint8Array(65_536)
  readonly #high = new Uint32Array(65_536)
  readonly #low = new Uint32Array(65_536)

  static identity(topic: string, payload: Uint8Array): string {
    return `${topic}\u0000${createHash("sha256").update(payload).digest("base64url")}`
  }

  acknowledged(messageId: number | undefined, identity: string): void {
    if (!validId(messageId)) return
    const print = fingerprint(identity)
    this.#known[messageId] = 1
    this.#high[messageId] = print.readUInt32BE(0)
    this.#low[messageId] = print.readUInt32BE(4)
  }

  isRedelivery(dup: boolean, messageId: number | undefined, identity: string): boolean {
    if (!dup || !validId(messageId) || this.#known[messageId] !== 1) return false
    const print = fingerprint(identity)
    return this.#high[messageId] === print.readUInt32BE(0) && this.#low[messageId] === print.readUInt32BE(4)
  }
}

const validId = (messageId: number | undefined): messageId is number =>
  messageId !== undefined && Number.isInteger(messageId) && messageId > 0 && messageId < 65_536

const fingerprint = (identity: string): Buffer => createHash("sha256").update(identity).digest()

/**
 * A QoS 1 message as the outbox remembers it, with what it produced. The broker resends an
 * unacknowledged message with its original packet id after our restart, so id, topic and
 * payload together name it; ids are reused only after a PUBACK, which is why a stored match is
 * looked for only among recent items.
 */
export const receivedAsOf = (messageId: number, identity: string): string => `${messageId}\u0000${identity}`

/** How far back a redelivery is matched: a restart takes seconds, and an id comes round only after 65,535 messages. */
export const redeliveryWindowMs = 10 * 60_000

/**
 * Receive times that never repeat: a backlog flushed after a reconnect arrives within one
 * millisecond, and two presses of one button stamped alike would share a click id (and the
 * second be dropped as the first's duplicate). Later by at most a millisecond per message.
 */
export const strictlyIncreasing = () => {
  let last = 0
  return (now: number): number => {
    last = Math.max(now, last + 1)
    return last
  }
}
