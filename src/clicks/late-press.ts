import { footageKeptMs } from "../delivery/footage.ts"
import type { ClickWindow } from "./click-window.ts"

/**
 * A press that waited at the broker while the bridge was not listening (link or daemon down),
 * from a source whose press time is the receive time: it was made at some moment between when
 * the bridge stopped listening and its arrival, not at its arrival.
 */
export interface LatePress {
  /** When the bridge stopped listening (ms): the press came after it. Null: not known. */
  readonly after: number | null
  /** When it reached the bridge: the press came before it. */
  readonly arrivedAt: number
}

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
