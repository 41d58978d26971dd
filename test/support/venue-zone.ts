import { afterAll, beforeAll } from "vitest"

/**
 * A venue whose clock differs from UTC's in hours and minutes (+09:30, +10:30 in summer) and whose
 * date is often UTC's next day: a message still written in UTC cannot pass for the venue's.
 */
export const venueZone = "Australia/Adelaide"

/**
 * The time the venue's clock shows, worked out here with the zone named (not through the bridge's
 * formatter, so a test compares the bridge against the venue and not against itself).
 */
export const venueTime = (ms: number, timeZone = venueZone, withSeconds = true): string =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", ...(withSeconds ? { second: "2-digit" } : {}), hourCycle: "h23", timeZone }).format(ms)

/** A browser far from the venue: 12-hour times by default, and 16 h 30 min or more behind it. */
export const farViewer = { timezoneId: "America/Los_Angeles", locale: "en-US" } as const

/**
 * Runs this file's tests with the in-process bridge in the venue's zone, as the mini-PC's TZ sets it
 * for the daemon (Node takes an assigned TZ at once). Put back after: files share a worker
 * (vitest.config.ts, isolate: false) and run one after another in it.
 */
export const inVenueZone = (zone = venueZone): void => {
  let before: string | undefined
  beforeAll(() => {
    before = process.env["TZ"]
    process.env["TZ"] = zone
  })
  afterAll(() => {
    if (before === undefined) delete process.env["TZ"]
    else process.env["TZ"] = before
  })
}
