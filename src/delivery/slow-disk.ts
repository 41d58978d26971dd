/**
 * Notices outbox writes that the disk held up. Every write ends in an fsync on the daemon's one
 * event loop, so while it waits nothing else runs: presses are stamped late and requests leave
 * late. A worn SD card or eMMC shows up here first. Says so at once, then at most once per
 * `everyMs` with how many and how slow, so a disk that stays slow does not flood the log.
 */
export interface SlowDiskOptions {
  /** A write slower than this is reported. */
  readonly thresholdMs: number
  readonly everyMs: number
}

export const slowDiskReporter = (file: string, { thresholdMs, everyMs }: SlowDiskOptions) => {
  let lastReportAt = -Infinity
  let since = 0
  let slowest = 0
  /** The message to log for this write, if one is due. */
  return (tookMs: number, now: number): string | undefined => {
    if (tookMs <= thresholdMs) return undefined
    since += 1
    slowest = Math.max(slowest, tookMs)
    if (now - lastReportAt < everyMs) return undefined
    const message = since === 1
      ? `writing the outbox (${file}) took ${Math.round(tookMs)} ms: the disk is slow, and presses and score changes wait for it`
      : `${since} outbox writes (${file}) took over ${thresholdMs} ms since the last report, the slowest ${Math.round(slowest)} ms: the disk is slow, and presses and score changes wait for it`
    lastReportAt = now
    since = 0
    slowest = 0
    return message
  }
}
