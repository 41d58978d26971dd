import { appendFileSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Daemon } from "./daemon-process.ts"
import { sleep } from "./stats.ts"

/**
 * What the backlog phase watches beside its presses and score changes: the status page as someone
 * keeps it open (the page, its status.json and one place's timeline, once a second), the daemon's
 * RSS, and its event-loop delay through the preloaded loop-delay probe.
 */

/** The probe, preloaded into the daemon with the heap probe. */
export const loopDelayProbe = join(import.meta.dirname, "loop-delay-probe.mjs")

/** One GET of the status server: how long its answer took (headers to the last byte). */
export interface StatusFetch {
  readonly at: number
  readonly what: "page" | "status.json" | "timeline"
  readonly ms: number
  readonly status: number | null
}

/** What a watcher saw; `stop` ends it and resolves once its last fetch is done. */
export interface Watching {
  readonly fetches: ReadonlyArray<StatusFetch>
  readonly rss: ReadonlyArray<{ readonly at: number; readonly mb: number }>
  readonly stop: () => Promise<void>
}

const timed = async (url: string): Promise<{ ms: number; status: number | null }> => {
  const started = performance.now()
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
    await response.arrayBuffer()
    return { ms: Math.round((performance.now() - started) * 10) / 10, status: response.status }
  } catch {
    return { ms: Math.round(performance.now() - started), status: null }
  }
}

/**
 * Once a second, at a random moment of it: the page (`/`), its status.json and `place`'s timeline as the page asks for it
 * (a width, and the timeline's version), one after the other as one browser would; and the
 * daemon's RSS from /proc.
 */
export const watchStatus = (statusUrl: string, place: string, daemon: Daemon): Watching => {
  const fetches: Array<StatusFetch> = []
  const rss: Array<{ at: number; mb: number }> = []
  let stopped = false
  const paths = [
    ["page", "/"],
    ["status.json", "/status.json"],
    ["timeline", `/places/${encodeURIComponent(place)}/timeline.svg?width=720`]
  ] as const
  const loop = (async () => {
    for (let tick = 0; !stopped; tick++) {
      const startedAt = Date.now()
      // At a random moment of each second: the score changes and presses come on a grid of whole
      // seconds from nearly the same start, and fetches on that grid would land on every one of
      // them (each stamp then waited for a fetch: p50 10 ms where a viewer's page costs a stamp
      // that only when the two meet).
      await sleep(Math.random() * 800)
      for (const [what, path] of paths) {
        const at = Date.now()
        fetches.push({ at, what, ...(await timed(`${statusUrl}${path}`)) })
      }
      if (!daemon.exited()) rss.push({ at: Date.now(), mb: daemon.rssMb().rss })
      await sleep(Math.max(0, startedAt + 1_000 - Date.now()))
    }
  })()
  return {
    fetches,
    rss,
    stop: async () => {
      stopped = true
      await loop
    }
  }
}

/** The probe's figure over a window, in ms beyond the resolution. */
export interface LoopDelay {
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Samples in the window (one per `loopResolutionMs` of an idle loop). */
  readonly count: number
}

/** The probe's sampling interval, as the daemon's own gauge samples (src/observability/loop-delay.ts). */
export const loopResolutionMs = 2

/** Commands to the loop-delay probe through its control file, answered within its 1 s poll. */
export const loopDelayControl = (dir: string) => {
  const control = join(dir, "loop-delay.control")
  const file = join(dir, "loop-delay.ndjson")
  appendFileSync(control, "")
  let n = 0
  const send = (command: "reset" | "report"): number => {
    appendFileSync(control, `${++n} ${command}\n`)
    return n
  }
  return {
    env: { SCOREBRIDGE_BENCH_LOOP_CONTROL: control, SCOREBRIDGE_BENCH_LOOP_FILE: file, SCOREBRIDGE_BENCH_LOOP_RESOLUTION_MS: String(loopResolutionMs) },
    reset: () => void send("reset"),
    /** The histogram since the last reset (or since the daemon started); undefined if the probe never answers. */
    report: async (): Promise<LoopDelay | undefined> => {
      const asked = send("report")
      for (let tries = 0; tries < 40; tries++) {
        await sleep(100)
        const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []
        const answer = lines.map((line) => JSON.parse(line) as LoopDelay & { n: number }).find((line) => line.n === asked)
        if (answer !== undefined) return { p50: answer.p50, p99: answer.p99, max: answer.max, count: answer.count }
      }
      return undefined
    }
  }
}

/** The daemon's own gauge, when its /metrics has one (issue 34 adds it): a cross-check of the probe. */
export const loopDelayGauge = async (statusUrl: string): Promise<string | undefined> => {
  try {
    const text = await (await fetch(`${statusUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text()
    const lines = text.split("\n").filter((line) => line.startsWith("scorebridge_event_loop_delay_seconds"))
    return lines.length === 0 ? undefined : lines.join("; ")
  } catch {
    return undefined
  }
}

/** user nice system idle iowait irq softirq steal, summed over all CPUs (USER_HZ ticks). */
const cpuTicks = (): ReadonlyArray<number> =>
  readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number)

/**
 * How busy the whole machine was from now until `busyPercent` is read (of all its CPUs, iowait
 * counted idle): the other work that shares the two cores with the daemon and the bench, to tell a
 * tail from noise.
 */
export const machineBusy = () => {
  const before = cpuTicks()
  return {
    busyPercent: (): number => {
      const delta = cpuTicks().map((value, i) => value - before[i]!)
      const total = delta.reduce((sum, value) => sum + value, 0)
      return total === 0 ? Number.NaN : (100 * (total - delta[3]! - delta[4]!)) / total
    }
  }
}
