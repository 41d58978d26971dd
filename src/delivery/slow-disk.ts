/**
 * Notices outbox work that the disk held up. A worn SD card or eMMC shows up here first. Says so
 * at once, then at most once per `everyMs` with how many and how slow, so a disk that stays slow
 * does not flood the log.
 */
export interface SlowDiskOptions {
  /** Slower than this is reported. */
  readonly thresholdMs: number
  readonly everyMs: number
  /** The message for one slow operation. */
  readonly one: (tookMs: number) => string
  /** The message for several since the last report. */
  readonly many: (count: number, thresholdMs: number, slowestMs: number) => string
}

export const slowDiskReporter = ({ thresholdMs, everyMs, one, many }: SlowDiskOptions) => {
  let lastReportAt = -Infinity
  let since = 0
  let slowest = 0
  /** The message to log for this operation, if one is due. */
  return (tookMs: number, now: number): string | undefined => {
    if (tookMs <= thresholdMs) return undefined
    since += 1
    slowest = Math.max(slowest, tookMs)
    if (now - lastReportAt < everyMs) return undefined
    const message = since === 1 ? one(Math.round(tookMs)) : many(since, thresholdMs, Math.round(slowest))
    lastReportAt = now
    since = 0
    slowest = 0
    return message
  }
}

/** Slower than this, an fsync or a commit of the outbox is slow: logged, and counted for /metrics. */
export const slowDiskThresholdMs = 100

const slowDiskOptions = { thresholdMs: slowDiskThresholdMs, everyMs: 60_000 }

/**
 * Running totals of the outbox's disk work since the outbox opened, read at each scrape of
 * /metrics (scorebridge_outbox_fsyncs_total and the like): a fleet sees a worn card without
 * reading the venue's log.
 */
export interface OutboxDiskStats {
  /** fsyncs of the log that ended, failed ones too. */
  readonly fsyncs: number
  /** Their summed duration, seconds. */
  readonly fsyncSeconds: number
  /** fsyncs slower than `slowDiskThresholdMs`. */
  readonly slowFsyncs: number
  /** Commits held on the event loop longer than `slowDiskThresholdMs`. */
  readonly slowCommits: number
}

/** Counts the outbox's fsyncs and commits as they end; `stats` is a copy of the totals. */
export const diskTally = () => {
  let fsyncs = 0
  let fsyncMs = 0
  let slowFsyncs = 0
  let slowCommits = 0
  return {
    synced: (tookMs: number): void => {
      fsyncs += 1
      fsyncMs += tookMs
      if (tookMs > slowDiskThresholdMs) slowFsyncs += 1
    },
    committed: (tookMs: number): void => {
      if (tookMs > slowDiskThresholdMs) slowCommits += 1
    },
    stats: (): OutboxDiskStats => ({ fsyncs, fsyncSeconds: fsyncMs / 1000, slowFsyncs, slowCommits })
  }
}

/** An fsync of the outbox, off the event loop: what waits is what leaves, not what arrives. */
export const slowSyncReporter = (file: string) =>
  slowDiskReporter({
    ...slowDiskOptions,
    one: (ms) => `storing outbox writes on disk (${file}) took ${ms} ms: the disk is slow; clicks and score entries leave only once stored, stamps are not delayed`,
    many: (count, threshold, slowest) =>
      `${count} fsyncs of the outbox (${file}) took over ${threshold} ms since the last report, the slowest ${slowest} ms: the disk is slow; clicks and score entries leave only once stored, stamps are not delayed`
  })

/** A commit runs on the event loop: while it is held, nothing is stamped. */
export const slowCommitReporter = (file: string) =>
  slowDiskReporter({
    ...slowDiskOptions,
    one: (ms) => `writing the outbox (${file}) took ${ms} ms on the event loop: another program holds its lock, or the disk is very slow; presses and frames wait for it`,
    many: (count, threshold, slowest) =>
      `${count} outbox writes (${file}) took over ${threshold} ms on the event loop since the last report, the slowest ${slowest} ms: another program holds its lock, or the disk is very slow; presses and frames wait for it`
  })
