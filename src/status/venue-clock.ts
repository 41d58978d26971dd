import { venueTimeZone } from "../timeline/time-ticks.ts"

/**
 * The zone the status page shows every time in, so that a phone in another zone or language
 * reads the venue's clock, as the timeline's labels do.
 */
export interface VenueClock {
  /** IANA name, e.g. Europe/Paris. */
  readonly timeZone: string
  /** The zone's offset from UTC at the snapshot: what a browser that does not know the zone falls back to. */
  readonly utcOffsetMinutes: number
}

export const venueClockAt = (at: number): VenueClock => ({
  timeZone: venueTimeZone(),
  // getTimezoneOffset reads the same zone as Intl's default: the process's.
  utcOffsetMinutes: -new Date(at).getTimezoneOffset()
})
