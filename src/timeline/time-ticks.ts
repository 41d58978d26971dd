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
 * The formatters, made once per style and zone and kept. Each Intl.DateTimeFormat holds ~25 kB of
 * ICU objects in malloc's memory, outside V8's heap, freed only when a major GC finalizes it: one
 * made per label (each tick and highlight of a timeline, every status.json) grew the daemon's glibc
 * heap by 0.4 MB/s while the status page was open, and what the collector freed was left as holes
 * the heap never gave back (the bench's backlog phase: a 32 MB heap, RSS 116 MB).
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
/** A handful in use (the bridge's zone, the page's, with and without seconds): the bound only guards against a caller's many zones. */
const maxFormatters = 32

const kept = (key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat => {
  let formatter = formatters.get(key)
  if (formatter === undefined) {
    formatter = make()
    if (formatters.size >= maxFormatters) formatters.clear()
    formatters.set(key, formatter)
  }
  return formatter
}

/**
 * The bridge's own zone as a key: a formatter given no zone takes the process's at its making, and
 * that changes only when TZ is assigned (Node applies it at once; the tests do so).
 */
const ownZone = (timeZone: string | undefined): string => timeZone ?? `TZ=${process.env["TZ"] ?? ""}`

/** The venue's time zone: the bridge's own (the mini-PC's, set when it was installed). */
export const venueTimeZone = (): string =>
  kept(`zone ${ownZone(undefined)}`, () => new Intl.DateTimeFormat()).resolvedOptions().timeZone

/** A wall-clock label, as the venue reads it (the bridge's time zone unless one is given). */
export const clockLabel = (ms: number, withSeconds: boolean, timeZone?: string): string =>
  kept(`clock ${withSeconds} ${ownZone(timeZone)}`, () =>
    new Intl.DateTimeFormat(clockLocale, {
      ...clockOptions(withSeconds),
      ...(timeZone === undefined ? {} : { timeZone })
    })).format(ms)

const day = 24 * 60 * minute

/** The venue's date of `ms` as 2026-11-26: read the same way in every language, unlike 26/11 or 11/26. */
const venueDate = (ms: number): string => {
  const parts = kept(`date ${ownZone(undefined)}`, () => new Intl.DateTimeFormat(clockLocale, { year: "numeric", month: "2-digit", day: "2-digit" }))
    .formatToParts(ms)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "??"
  return `${part("year")}-${part("month")}-${part("day")}`
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
