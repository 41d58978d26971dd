import { Clock, Effect } from "effect"

/** Wrong codes one client address may send in `addressWindowMs`; a try refused meanwhile counts as one too. */
export const wrongCodesPerAddress = 5
export const addressWindowMs = 60_000

/**
 * Wrong codes from every address together in `overallWindowMs` after which the current code is
 * retired: guessing from many addresses at once then gains nothing, and nobody is refused for it.
 */
export const wrongCodesOverall = 20
export const overallWindowMs = 10 * 60_000

/**
 * Guessing retires a code at most this often, so the technician always has a minute to type the
 * one just printed. More retiring would not make guesses less likely to hit (each one is a chance
 * in ~10^12 either way): it would only let many addresses together keep the right code from ever
 * being typed in time.
 */
export const retireGapMs = 60_000

export interface LoginLimiter {
  /**
   * 0 when `remote` may try a code now, else how long until it may. A refused try is counted, so
   * hammering lengthens only that address's own wait; other addresses are never refused for it.
   */
  readonly admit: (remote: string) => Effect.Effect<number>
  /**
   * A wrong code from `remote`. When the wrong codes of every address together reach
   * `wrongCodesOverall` within `overallWindowMs`, and no code was retired for it in the last
   * `retireGapMs`: how many addresses sent them (the caller retires the code); the count starts again.
   */
  readonly recordWrong: (remote: string) => Effect.Effect<{ readonly addresses: number } | undefined>
}

interface Wrong {
  readonly at: number
  readonly remote: string
}

/** The `count` latest of `times` (oldest first) within `windowMs` of `now`: all a sliding limit needs to keep. */
const recent = (times: ReadonlyArray<number>, now: number, windowMs: number, count: number) =>
  times.filter((at) => now - at < windowMs).slice(-count)

/**
 * The limits on guessing the one-time code, timed on Effect's Clock. Each address has its own
 * sliding minute, so a stranger's wrong codes never hold the technician's right one out; the
 * overall bound retires the code (and the terminal says why) instead of refusing anyone. Each
 * guess hits with a chance of 1 in 31^8 (~8.5·10^11): one address at 5 a minute needs ~10^11 minutes.
 */
export const makeLoginLimiter: Effect.Effect<LoginLimiter> = Effect.sync(() => {
  const byAddress = new Map<string, ReadonlyArray<number>>()
  let overall: ReadonlyArray<Wrong> = []
  let retiredAt = Number.NEGATIVE_INFINITY
  let sweptAt = 0
  // Addresses whose window has passed are forgotten, at most once a window: many addresses cost memory for a minute only.
  const sweep = (now: number) => {
    if (now - sweptAt < addressWindowMs) return
    sweptAt = now
    for (const [remote, times] of byAddress) if (recent(times, now, addressWindowMs, 1).length === 0) byAddress.delete(remote)
  }
  const count = (remote: string, now: number) => {
    const times = [...recent(byAddress.get(remote) ?? [], now, addressWindowMs, wrongCodesPerAddress - 1), now]
    byAddress.set(remote, times)
    return times
  }
  return {
    admit: (remote) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        const times = recent(byAddress.get(remote) ?? [], now, addressWindowMs, wrongCodesPerAddress)
        if (times.length < wrongCodesPerAddress) return 0
        const counted = count(remote, now)
        return counted[0]! + addressWindowMs - now
      }),
    recordWrong: (remote) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        count(remote, now)
        overall = [...overall.filter((wrong) => now - wrong.at < overallWindowMs), { at: now, remote }].slice(-wrongCodesOverall)
        if (overall.length < wrongCodesOverall || now - retiredAt < retireGapMs) return undefined
        const addresses = new Set(overall.map((wrong) => wrong.remote)).size
        overall = []
        retiredAt = now
        return { addresses }
      })
  }
})
