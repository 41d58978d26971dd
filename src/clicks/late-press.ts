import { footageKeptMs } from "../delivery/footage.ts"
import type { LatePress } from "../domain/press-result.ts"
import type { ClickWindow } from "./click-window.ts"

/**
 * The window for a late press when the place configures none. The service's default windows per
 * sport are not published, and a widened window has to be given explicitly; these are the
 * simulator's defaults.
 */
export const lateFallbackWindow: ClickWindow = { beforeSeconds: 20, afterSeconds: 10 }

/**
 * The recording window of a late press: from `beforeSeconds` ahead of the earliest moment it can
 * have been made to `afterSeconds` past the latest, its arrival. It never reaches back further
 * than the footage an open event still keeps when the click can first reach the service (a
 * minute before the arrival): older footage is gone, and an hour-long outage must not become an
 * hour-long clip. It is never narrower than an on-time press's window either.
 */
export const lateWindow = (late: LatePress, window: ClickWindow = lateFallbackWindow): { readonly startTime: number; readonly endTime: number } => {
  const beforeMs = Math.round(window.beforeSeconds * 1000)
  const oldestKept = late.arrivedAt - footageKeptMs
  const wanted = late.after === null ? oldestKept : late.after - beforeMs
  return {
    startTime: Math.min(late.arrivedAt - beforeMs, Math.max(wanted, oldestKept)),
    endTime: late.arrivedAt + Math.round(window.afterSeconds * 1000)
  }
}
