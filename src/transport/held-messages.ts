/**
 * Which messages the broker held for our persistent session while we were not listening: the
 * link was down, or the whole daemon (stopped, crashed, powered off). Such a message was
 * published somewhere between when we stopped listening and its arrival, so its receive time
 * says little about when it happened (a press from a remote that has no clock of its own).
 *
 * The broker gives no publish time, so this is inferred from how a resumed session behaves: its
 * queue is delivered right after the CONNACK, back to back (the client takes the next message as
 * soon as the previous one is acknowledged). A message is *held* when it arrives within
 * `firstMs` of a connect that resumed the session, or within `nextMs` of the handling of the
 * previous held one; the first message that breaks the chain, and everything after it, is live.
 * A live press taken for held by mistake only gets a wider window, which still contains it.
 */
export interface Held {
  /** When we stopped listening (ms): the message was published after this. Null: unknown. */
  readonly since: number | null
}

export const heldTiming = { firstMs: 2_000, nextMs: 500 }

export class HeldMessages {
  #listenedUntil: number | null
  #holding: { readonly since: number | null; until: number } | undefined
  #connected = false

  /** `previousRun`: when the daemon's previous run last listened (its listening mark), if known. */
  constructor(previousRun: number | null) {
    this.#listenedUntil = previousRun
  }

  connected(sessionResumed: boolean, now: number): void {
    // Without a session the broker kept nothing for us: nothing arrives held.
    this.#holding = sessionResumed ? { since: this.#listenedUntil, until: now + heldTiming.firstMs } : undefined
    this.#connected = true
  }

  dropped(now: number): void {
    if (this.#connected) this.#listenedUntil = now
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
