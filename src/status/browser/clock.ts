/**
 * The venue's zone (status.json's venueClock) and the timeline's 24-hour style, never the
 * viewer's: a phone set to another zone or language reads the venue's clock.
 */
import { clockLocale, clockOptions } from "../../timeline/time-ticks.ts"
import type { Snapshot } from "./snapshot-types.ts"

const venue: { format: Intl.DateTimeFormat | null; zone: string | null; offset: number } = { format: null, zone: null, offset: 0 }

export const venueClock = (v: Snapshot["venueClock"] | undefined): void => {
  if (!v) return
  venue.offset = v.utcOffsetMinutes
  if (v.timeZone === venue.zone) return
  venue.zone = v.timeZone
  try {
    venue.format = new Intl.DateTimeFormat(clockLocale, { ...clockOptions(true), timeZone: v.timeZone })
  } catch {
    venue.format = null
  }
}

/** A browser that does not know the zone: the offset at the last snapshot. */
export const clock = (ms: number | null | undefined): string => {
  if (ms === null || ms === undefined) return ""
  return venue.format ? venue.format.format(ms) : new Date(ms + venue.offset * 60000).toISOString().slice(11, 19)
}
