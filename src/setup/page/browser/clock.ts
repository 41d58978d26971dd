/**
 * The venue's clock (GET /api/config's venueClock: the mini-PC's zone, which the status page and
 * the layout report use too) in the timeline's 24-hour style, never the phone's zone or language.
 */
import { clockLocale, clockOptions } from "../../../timeline/time-ticks.ts"
import type { ConfigView } from "./api-types.ts"

const venue: { format: Intl.DateTimeFormat | null; zone: string | null; offset: number } = { format: null, zone: null, offset: 0 }

export const venueClock = (v: ConfigView["venueClock"] | undefined): void => {
  if (!v || v.timeZone === venue.zone) return
  venue.zone = v.timeZone
  venue.offset = v.utcOffsetMinutes
  try {
    venue.format = new Intl.DateTimeFormat(clockLocale, { ...clockOptions(true), timeZone: v.timeZone })
  } catch {
    venue.format = null
  }
}

/** A browser that does not know the zone: its offset when the page read the config. */
export const hms = (at: number | string | null | undefined): string => {
  if (at === undefined || at === null) return ""
  const d = new Date(at)
  if (isNaN(d.getTime())) return String(at)
  return venue.format ? venue.format.format(d) : new Date(d.getTime() + venue.offset * 60000).toISOString().slice(11, 19)
}
