/**
 * Which messages the broker held for our persistent session while we were not listening: the
 * link was down, or the whole daemon (stopped, crashed, powered off). Such a message was
 * published somewhere between the last time we heard from the broker and its arrival, so its
 * receive time says little about when it happened (a press from a remote without a clock).
 *
 * The broker gives no publish time, so this is inferred from how a resumed session behaves: its
 * queue is delivered right after the CONNACK, back to back (the client takes the next message as
 * soon as the previous one is acknowledged). A message is *held* when it arrives within
 * `firstMs` of a connect that resumed the session, or within `nextMs` of the handling of the
 * previous held one; the first message that breaks the chain, and everything after it, is live.
 * A live press taken for held by mistake only gets a wider window, which still contains it.
 *
 * "Since" is the last packet heard from the broker before the link went down, not the moment
 * the drop was noticed: a link that dies silently (a cable between the bridge and a remote
 * broker) is noticed only by the keepalive, up to 45 s later, and what the broker sent into it
 * meanwhile comes back held. After a restart it is the previous run's listening mark.
 */
export interface Held {
  /** The last time we heard from the broker before (ms): the message was published after it. Null: unknown. */
  readonly since: number | null
}

export const heldTiming = { firstMs: 2_000, nextMs: 500 }

export class HeldMessages {
  #lastHeard: number | null
  #holding: { readonly since: number | null; until: number } | undefined
  #connected = false

  /** `previousRun`: when the daemon's previous run last heard from the broker (its listening mark), if known. */
  constructor(previousRun: number | null) {
    this.#lastHeard = previousRun
  }

  /** When we last heard from the broker on a live link (null before the first connect, without a mark). */
  get lastHeard(): number | null {
    return this.#lastHeard
  }

  connected(sessionResumed: boolean, now: number): void {
    // Without a session the broker kept nothing for us: nothing arrives held.
    this.#holding = sessionResumed ? { since: this.#lastHeard, until: now + heldTiming.firstMs } : undefined
    this.#connected = true
    this.#lastHeard = now
  }

  /** Any packet from the broker (a message, an acknowledgement, a ping answer). */
  heard(now: number): void {
    // The CONNACK of a new connection is heard before `connected`: it must not hide the gap.
    if (this.#connected) this.#lastHeard = now
  }

  dropped(): void {
    this.#connected = false
  }

  /** Whether a message arriving now was held, and since when. */
  arrived(now: number): Held | undefined {
    if (this.#holding === undefined) return undefined
    if (now > this.#holding.until) {
      this.#holding = undefined
      return undefined
    }
    return { since: this.#holding.since }
  }

  /** A held message has been handled (acknowledged): the next one of the queue follows at once. */
  handled(now: number): void {
    if (this.#holding !== undefined) this.#holding.until = Math.max(this.#holding.until, now + heldTiming.nextMs)
  }
}
