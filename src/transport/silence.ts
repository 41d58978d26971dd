import { Clock, Effect } from "effect"

/** How often silence is looked for: a quiet link is reported within this much of its limit. */
const checkEveryMs = 250

/**
 * Tells when a network link has gone quiet: no bytes for `quietMs`. A console
 * on a network cable that was pulled sends nothing and the socket does not
 * close (TCP waits for keepalives, UDP never knows), so silence is the only sign.
 */
export class Silence {
  private readonly quietMs: number
  private lastHeardAt: number
  private reported = false

  constructor(quietMs: number, now: number) {
    this.quietMs = quietMs
    this.lastHeardAt = now
  }

  /** Bytes arrived; true when the link had been reported quiet (it is back). */
  heard(at: number): boolean {
    this.lastHeardAt = at
    const wasQuiet = this.reported
    this.reported = false
    return wasQuiet
  }

  /** Restart the count (a new connection). */
  reset(now: number): void {
    this.lastHeardAt = now
    this.reported = false
  }

  /** Runs `onQuiet(silentMs)` once per silence, for as long as it runs. */
  watch(onQuiet: (silentMs: number) => Effect.Effect<void>): Effect.Effect<never> {
    const check = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const silentMs = now - this.lastHeardAt
      if (this.reported || silentMs < this.quietMs) return Effect.void
      this.reported = true
      return onQuiet(silentMs)
    })
    return Effect.forever(Effect.andThen(Effect.sleep(checkEveryMs), check))
  }
}

export const quietReason = (what: string, silentMs: number) =>
  `${what} silent for ${Math.round(silentMs / 1000)} s (network cable unplugged, device off, or its output stopped?)`
