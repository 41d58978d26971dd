const second = 1000
const minute = 60 * second
const steps = [1, 2, 5, 10, 15, 30].map((s) => s * second)
  .concat([1, 2, 5, 10, 15, 30].map((m) => m * minute))
  .concat([1, 2, 3, 6, 12, 24].map((h) => h * 60 * minute))

/** Round clock times between `from` and `to`, at least `minGapMs` apart. */
export const timeTicks = (from: number, to: number, minGapMs: number): { readonly step: number; readonly ticks: ReadonlyArray<number> } => {
  const step = steps.find((s) => s >= minGapMs) ?? steps.at(-1)!
  const ticks: Array<number> = []
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t)
  return { step, ticks }
}

/**
 * The venue's clock style, 24-hour whatever the viewer's language: the timeline's labels and the
 * status page's times (which formats in the browser with these same options) are one style.
 */
export const clockLocale = "en-GB"
export const clockOptions = (withSeconds: boolean): Intl.DateTimeFormatOptions => ({
  hour: "2-digit",
  minute: "2-digit",
  ...(withSeconds ? { second: "2-digit" } : {}),
  hourCycle: "h23"
})

/**
 * Labels in the bridge's own zone come from Date's local time, not Intl.DateTimeFormat: the first
 * formatter makes ICU load its date formats and locale data, about 8 MB of the daemon's resident
 * memory (the bench's backlog phase, the status page open: RSS 91 MB with one kept formatter per
 * style, 84 MB with none), for what Date gives in the same zone (V8 reads its local time from the
 * same ICU zone, and follows TZ when it is assigned, as Intl's default does). A named zone, which
 * only other tools ask for, takes a formatter, made once per style and zone and kept: each holds
 * ~25 kB of ICU objects in malloc's memory until a major GC finalizes it, and one made per label
 * (every tick and highlight of a timeline) grew the daemon's glibc heap 0.4 MB/s into holes it
 * never gave back (RSS 116 MB).
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
/** A handful in use (a zone or two, with and without seconds): the bound only guards against a caller's many zones. */
const maxFormatters = 32

const zoneFormatter = (withSeconds: boolean, timeZone: string): Intl.DateTimeFormat => {
  const key = `${withSeconds} ${timeZone}`
  let formatter = formatters.get(key)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(clockLocale, { ...clockOptions(withSeconds), timeZone })
    if (formatters.size >= maxFormatters) formatters.clear()
    formatters.set(key, formatter)
  }
  return formatter
}

const twoDigits = (n: number): string => String(n).padStart(2, "0")

/** `ms` in the process's local time; a time that is no time throws, as Intl's format does. */
const localDate = (ms: number): Date => {
  const date = new Date(ms)
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid time value: ${ms}`)
  return date
}

/** A wall-clock label, as the venue reads it (the bridge's time zone unless one is given): 24-hour HH:MM or HH:MM:SS. */
export const clockLabel = (ms: number, withSeconds: boolean, timeZone?: string): string => {
  if (timeZone !== undefined) return zoneFormatter(withSeconds, timeZone).format(ms)
  const date = localDate(ms)
  const clock = `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`
  return withSeconds ? `${clock}:${twoDigits(date.getSeconds())}` : clock
}

const day = 24 * 60 * minute

/** The venue's date of `ms` as 2026-11-26: read the same way in every language, unlike 26/11 or 11/26. */
const venueDate = (ms: number): string => {
  const date = localDate(ms)
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`
}

/**
 * When a message names the date too: `"always"` for a record that is read once and then shown for
 * days (the text does not change as it ages), otherwise when `now` is more than a day away, where
 * the time alone could be yesterday's or today's.
 */
export type DateInWords = "always" | { readonly now: number }

/**
 * A time in the venue's words, for the messages the bridge writes (the status page's warnings,
 * /healthz reasons, the journal): the clock the page shows, in the bridge's zone and 24-hour
 * style, so that a message and the card beside it read alike.
 */
export const venueTimeWords = (ms: number, date: DateInWords): string => {
  const time = clockLabel(ms, true)
  return date === "always" || Math.abs(date.now - ms) > day ? `${time} on ${venueDate(ms)}` : time
}

/** Nice whole-number steps for a score axis of 0…max, about `count` of them. */
export const scoreTicks = (max: number, count: number): ReadonlyArray<number> => {
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => max / s <= count) ?? Math.ceil(max / count)
  const ticks: Array<number> = []
  for (let v = 0; v <= max; v += step) ticks.push(v)
  return ticks
}
