import type { ServerClock } from "../service/client.ts"
import { type CheckOutcome, ok, warn } from "./check-outcome.ts"

/** Clips are cut from the bridge's timestamps: beyond this, highlights visibly miss their moment. */
export const skewLimitMs = 2_000

/**
 * How far the local clock is from the service's, at least. The `Date` header
 * has whole seconds and was stamped somewhere during the round trip, so any
 * offset within [−(latency + 1 s), 0] of local − server could be no skew at
 * all; only the distance beyond that interval is certain.
 */
export const certainSkewMs = (clock: ServerClock): number => {
  const latest = clock.localDate - clock.serverDate
  const earliest = latest - clock.latencyMs - 1_000
  if (earliest > 0) return earliest
  if (latest < 0) return latest
  return 0
}

const seconds = (ms: number): string => `${(Math.abs(ms) / 1000).toFixed(1)} s`

export const clockOutcome = (clock: ServerClock): CheckOutcome => {
  const skew = certainSkewMs(clock)
  if (Math.abs(skew) <= skewLimitMs) return ok(`clock: within ${seconds(skewLimitMs)} of the service's`)
  return warn(
    `clock: ${seconds(skew)} ${skew > 0 ? "ahead of" : "behind"} the service's`,
    `turn on time synchronisation: sudo timedatectl set-ntp true, then check \`timedatectl status\` says "System clock synchronized: yes"; highlights are cut from this machine's timestamps, so every clip is off by the same amount`
  )
}
