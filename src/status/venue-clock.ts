import { existsSync, realpathSync } from "node:fs"
import { join } from "node:path"

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

const zoneinfo = "/usr/share/zoneinfo"

/** An IANA zone name the system's zone files know (a POSIX rule such as `CET-1CEST,M3.5.0,M10.5.0/3` is none). */
const knownZone = (name: string): string | undefined =>
  /^[A-Za-z][\w+-]*(\/[\w+-]+)*$/u.test(name) && existsSync(join(zoneinfo, name)) ? name : undefined

/** The zone a zone file's path names (…/zoneinfo/Europe/Paris, or its posix/ copy). */
const zoneOfPath = (path: string): string | undefined => {
  const at = path.lastIndexOf("/zoneinfo/")
  return at === -1 ? undefined : knownZone(path.slice(at + "/zoneinfo/".length).replace(/^(posix|right)\//u, ""))
}

/** The zone /etc/localtime links to, as timedatectl sets it. */
const linkedZone = (): string | undefined => {
  try {
    return zoneOfPath(realpathSync("/etc/localtime"))
  } catch {
    return undefined
  }
}

const zoneNames = new Map<string, string>()

/**
 * The bridge's own zone by name, found where ICU finds it (TZ, where a leading `:` and a zone
 * file's path are glibc's; else the zone /etc/localtime links to), not by asking
 * Intl.DateTimeFormat: the first formatter costs the daemon about 8 MB of resident memory
 * (time-ticks.ts), for a name. Intl is asked only when neither names a zone the system knows. The
 * name may be an alias of Intl's (Etc/UTC for UTC): the same zone to a browser. Kept per value of
 * TZ, which the process's zone follows.
 */
export const venueTimeZone = (): string => {
  const tz = process.env["TZ"] ?? ""
  let name = zoneNames.get(tz)
  if (name === undefined) {
    const named = tz.replace(/^:/u, "")
    const found = named === "" ? linkedZone() : named.startsWith("/") ? zoneOfPath(named) : knownZone(named)
    name = found ?? new Intl.DateTimeFormat().resolvedOptions().timeZone
    zoneNames.set(tz, name)
  }
  return name
}

export const venueClockAt = (at: number): VenueClock => ({
  timeZone: venueTimeZone(),
  // getTimezoneOffset reads the process's zone, as the timeline's labels do.
  utcOffsetMinutes: -new Date(at).getTimezoneOffset()
})
