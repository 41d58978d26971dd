import { backlogJson, type BacklogFigures } from "./backlog.ts"
import type { DecoderFigures } from "./decoders.ts"
import type { Host } from "./host.ts"
import { type Heading, type LatencyFigure, say } from "./report.ts"
import type { SaturatedFigures } from "./saturated.ts"
import { fsyncDelayMs, type SlowDiskFigures } from "./slow-disk.ts"
import { readyDefinition } from "./startup.ts"
import { round1, round2, round3 } from "./stats.ts"
import type { SteadyFigures } from "./steady.ts"
import { requestsPerSecond } from "./venue.ts"

/** The phases that load the first daemon: all of them, or none with --slow-disk-only. */
export interface LoadedFigures {
  readonly decoders: DecoderFigures
  readonly steady: SteadyFigures
  readonly saturated: SaturatedFigures
  readonly soakMinutes: number
}

/** The chatter phase's figures (bench/chatter.ts), as far as the summary reads them. */
export interface ChatterSummary {
  readonly quietClickLatencyMs: { readonly p50: number; readonly p99: number }
  readonly clickLatencyMs: { readonly p50: number; readonly p99: number }
  readonly rssMb: number
}

/** The first daemon's start-up and warnings and the slow-disk phase: absent with --backlog-only or --chatter-only. */
export interface MainFigures {
  readonly startupMs: number
  /** The first daemon's warnings and errors. */
  readonly warnings: number
  readonly slowDisk: SlowDiskFigures
}

export interface RunFigures {
  readonly benchStartedAt: number
  readonly host: Host
  readonly placeCount: number
  readonly loaded: LoadedFigures | undefined
  readonly main: MainFigures | undefined
  /** Over the whole run, every daemon (the backlog phase's after the service's return). */
  readonly http429: number
  readonly backlog: BacklogFigures | undefined
  readonly chatter: ChatterSummary | undefined
}

/** A target of issue #7 or #14: what it says, whether the run met it, and the figure that decided. */
type Check = readonly [target: string, met: boolean, figure: string]

const loadedChecks = ({ decoders, steady, saturated }: LoadedFigures): Array<Check> => {
  const drainRatio = saturated.drain.perSecond / requestsPerSecond
  return [
    ["click saturated p99 ≤ 1050 ms", saturated.click.p99 <= 1050, `${saturated.click.p99} ms`],
    ["click idle p99 ≤ 20 ms", steady.clickIdle.p99 <= 20, `${steady.clickIdle.p99} ms`],
    ["score idle p50 ≤ 10 ms", steady.scoreIdle.p50 <= 10, `${steady.scoreIdle.p50} ms`],
    ["score idle p99 ≤ 25 ms", steady.scoreIdle.p99 <= 25, `${steady.scoreIdle.p99} ms`],
    ["drain ratio ≥ 0.95", drainRatio >= 0.95, round3(drainRatio).toString()],
    ["rss ≤ 85 MB", steady.rssMb <= 85, `${steady.rssMb.toFixed(1)} MB`],
    ["heap growth ≤ 1 MB/h", steady.heapGrowthMbPerHour <= 1, `${steady.heapGrowthMbPerHour.toFixed(2)} MB/h (${steady.heapSpanMin.toFixed(1)} min of samples)`],
    ["decoders ≥ 1.5 MB/s", Object.values(decoders.asDaemon).every((v) => v >= 1.5), `min ${Math.min(...Object.values(decoders.asDaemon))} MB/s`]
  ]
}

const latencyJson = (figure: LatencyFigure) => ({ p50: figure.p50, p99: figure.p99, max: figure.max, n: figure.n, lost: figure.lost })

/** The loaded phases' keys of the JSON line, in the order earlier runs have them (http_429_count among them). */
const loadedJson = ({ decoders, steady, saturated }: LoadedFigures, http429: number) => ({
  click_latency_ms_idle: latencyJson(steady.clickIdle),
  click_latency_ms_saturated: latencyJson(saturated.click),
  score_latency_ms_idle: latencyJson(steady.scoreIdle),
  score_latency_ms_idle_settled: latencyJson(steady.scoreSettled),
  drain_rate_ratio: round3(saturated.drain.perSecond / requestsPerSecond),
  drain: { requests: saturated.drain.requests, seconds: round1(saturated.drain.seconds), drained: saturated.drained, backlog: saturated.backlog },
  http_429_count: http429,
  rss_mb: round1(steady.rssMb),
  rss_peak_mb: round1(saturated.rssPeakMb),
  cpu_percent_steady: round1(steady.cpuPercent),
  heap_growth_mb_per_hour: round2(steady.heapGrowthMbPerHour),
  heap_method: `post-GC heapUsed of the daemon (preloaded bench/heap-probe.mjs, --expose-gc, SIGUSR2), ${steady.heapSamples} samples over ${steady.heapSpanMin.toFixed(1)} min, least-squares slope`,
  heap_used_mb_last: steady.heapUsedLastMb === undefined ? null : round2(steady.heapUsedLastMb),
  decode_mb_per_s: decoders.asDaemon,
  decode_mb_per_s_with_jit: decoders.withJit,
  daemon_node_flags: decoders.flags
})

const mainChecks = ({ startupMs, slowDisk }: MainFigures): Array<Check> => [
  ["start-up ≤ 1500 ms", startupMs <= 1500, `${startupMs} ms`],
  ["slow disk: stamp error p99 ≤ 5 ms", slowDisk.stampError.p99 <= 5, `${slowDisk.stampError.p99} ms`],
  ["slow disk: other-place delay p99 ≤ 50 ms", slowDisk.otherPlaceDelay.p99 <= 50, `${slowDisk.otherPlaceDelay.p99} ms`]
]

/** Issue 34's targets of the backlog phase; a click may wait one rate slot behind a past entry already on its way. */
const backlogChecks = (b: BacklogFigures): Array<Check> => {
  const slotMs = 1000 / requestsPerSecond
  const statusP99 = Math.max(b.status.p99, b.page.p99)
  return [
    ["backlog: start-up ≤ 1000 ms", b.startupMs <= 1000, `${b.startupMs} ms`],
    ["backlog: every live place current ≤ 15 s", b.liveCurrent.notCurrent === 0 && b.liveCurrent.max <= 15_000,
      b.liveCurrent.notCurrent === 0 ? `max ${b.liveCurrent.max} ms` : `${b.liveCurrent.notCurrent} of ${b.liveCurrent.n} never current`],
    ["backlog: loop delay p99 ≤ 10 ms", b.loopDelay !== undefined && b.loopDelay.p99 <= 10, `${b.loopDelay?.p99 ?? "?"} ms`],
    ["backlog: loop delay max ≤ 50 ms", b.loopDelay !== undefined && b.loopDelay.max <= 50, `${b.loopDelay?.max ?? "?"} ms`],
    ["backlog: stamp error p99 ≤ 5 ms", b.stampError.p99 <= 5, `${b.stampError.p99} ms`],
    [`backlog: click p99 ≤ ${slotMs + 50} ms`, b.click.p99 <= slotMs + 50, `${b.click.p99} ms (lost ${b.click.lost})`],
    ["backlog: status page p99 ≤ 100 ms", statusP99 <= 100, `${statusP99} ms (status.json ${b.status.p99}, / ${b.page.p99}; timeline ${b.timeline.p99})`],
    ["backlog: drain ≥ 0.95", b.drain.ratio >= 0.95, round3(b.drain.ratio).toString()],
    ["backlog: rss ≤ 86 MB", b.rssMb <= 86, `${b.rssMb.toFixed(1)} MB`]
  ]
}

const chatterChecks = (c: ChatterSummary): Array<Check> => [
  ["chatter: click p99 ≤ quiet p99 + 5 ms", c.clickLatencyMs.p99 <= c.quietClickLatencyMs.p99 + 5, `${c.clickLatencyMs.p99} ms (quiet ${c.quietClickLatencyMs.p99} ms)`],
  ["chatter: rss ≤ 86 MB", c.rssMb <= 86, `${c.rssMb.toFixed(1)} MB`]
]

const mainJson = ({ startupMs, slowDisk }: MainFigures) => {
  const { stampError, clickIdle, clickBehind, otherPlaceDelay, fsync } = slowDisk
  return {
    stamp_error_ms_slow_disk: { p50: stampError.p50, p99: stampError.p99, max: stampError.max, n: stampError.n },
    click_latency_ms_slow_disk: latencyJson(clickIdle),
    click_latency_ms_slow_disk_behind_others: { p50: clickBehind.p50, p99: clickBehind.p99, n: clickBehind.n },
    other_place_delay_ms_slow_disk: { p50: otherPlaceDelay.p50, p99: otherPlaceDelay.p99, max: otherPlaceDelay.max, n: otherPlaceDelay.n },
    slow_disk_fsync_ms: { p50: fsync.p50, max: fsync.max, n: fsync.n, delay_ms: fsyncDelayMs, what: "flushes of the loop device under ext4; an fdatasync sends two of delay_ms / 2 each" },
    startup_ms: startupMs,
    startup_definition: readyDefinition
  }
}

const chatterJson = (c: ChatterSummary) => ({
  chatter_click_latency_ms: { p50: c.clickLatencyMs.p50, p99: c.clickLatencyMs.p99 },
  chatter_click_latency_ms_quiet: { p50: c.quietClickLatencyMs.p50, p99: c.quietClickLatencyMs.p99 },
  chatter_rss_mb: round1(c.rssMb)
})

/**
 * The closing phase: every target met or missed, then the one JSON line that earlier runs are
 * compared by (with --slow-disk-only, --backlog-only or --chatter-only, only the keys that run measured).
 */
export const summarize = (heading: Heading, run: RunFigures): void => {
  const { loaded, main, backlog, chatter } = run
  const partial = loaded === undefined ? " (a partial run: what was measured)" : ""
  heading(`summary against the targets of issues #7, #14 and #34${partial}`)
  const checks: Array<Check> = [
    ...(loaded === undefined ? [] : loadedChecks(loaded)),
    ["http 429 = 0", run.http429 === 0, String(run.http429)],
    ...(main === undefined ? [] : mainChecks(main)),
    ...(backlog === undefined ? [] : backlogChecks(backlog)),
    ...(chatter === undefined ? [] : chatterChecks(chatter))
  ]
  for (const [target, met, figure] of checks) say(`  ${met ? "met   " : "MISSED"} ${target.padEnd(40)} ${figure}`)
  const durationS = Math.round((Date.now() - run.benchStartedAt) / 1000)
  const warnings = [
    ...(main === undefined ? [] : [`${main.warnings}, on the slow disk ${main.slowDisk.warnings}`]),
    ...(backlog === undefined ? [] : [`in the backlog phase ${backlog.warnings}`])
  ]
  say(`  daemon warnings/errors logged: ${warnings.join("; ") || "–"}; bench took ${durationS} s`)

  say(JSON.stringify({
    ...(loaded === undefined ? {} : loadedJson(loaded, run.http429)),
    http_429_count: run.http429,
    ...(main === undefined ? {} : mainJson(main)),
    ...(backlog === undefined ? {} : backlogJson(backlog)),
    ...(chatter === undefined ? {} : chatterJson(chatter)),
    places: run.placeCount,
    requests_per_second: requestsPerSecond,
    ...(loaded === undefined ? {} : { soak_minutes: loaded.soakMinutes }),
    machine: run.host,
    duration_s: durationS
  }))
}
