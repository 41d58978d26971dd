import { Effect, Layer, Option, Schedule } from "effect"
import { ServiceClient, type ServerClock } from "../service/client.ts"

/** Beyond this, clicks and entries stamped by the local clock land visibly off in the service's video. */
export const skewLimitMs = 2_000

/**
 * Service clock minus local clock, from one answer. The `Date` header has
 * whole seconds, so the service's time is taken mid-second, and the local
 * time mid-request: the estimate is within about ±0.5 s + latency/2.
 */
export const clockSkewMs = (clock: ServerClock): number =>
  clock.serverDate + 500 - (clock.localDate - clock.latencyMs / 2)

/** What one skew check says: a warning when the clock drifts beyond the limit (once), a note when it is back. */
export const skewNotice = (skewMs: number, warned: boolean): { readonly warned: boolean; readonly warning?: string; readonly info?: string } => {
  const skew = Math.round(skewMs)
  if (Math.abs(skew) > skewLimitMs && !warned) {
    return {
      warned: true,
      warning: `this machine's clock is ${Math.abs(skew)} ms ${skew > 0 ? "behind" : "ahead of"} the service's: ` +
        `score and click times will be off by that much — check NTP (timedatectl status)`
    }
  }
  if (Math.abs(skew) <= skewLimitMs && warned) return { warned: false, info: `clock agrees with the service again (${skew} ms)` }
  return { warned }
}

/**
 * Watches the service's `Date` headers and warns while the local clock is off
 * by more than 2 s (and says so once it is back), so a technician fixes NTP
 * before highlights land in the wrong place.
 */
export const clockSkewLayer = (everyMs = 15_000) => Layer.effectDiscard(Effect.gen(function*() {
  const client = yield* ServiceClient
  let warned = false
  const check = Effect.gen(function*() {
    const last = yield* client.lastServerDate
    if (Option.isNone(last)) return
    const notice = skewNotice(clockSkewMs(last.value), warned)
    warned = notice.warned
    if (notice.warning !== undefined) yield* Effect.logWarning(notice.warning)
    if (notice.info !== undefined) yield* Effect.logInfo(notice.info)
  })
  yield* Effect.forkScoped(Effect.repeat(check, Schedule.spaced(everyMs)))
}))
