import type { Stall } from "./stalls.mjs"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { type LogLine as ProcessLogLine, startDaemon as startScorebridgeDaemon } from "../scripts/support/scorebridge-process.ts"

const probe = join(import.meta.dirname, "heap-probe.mjs")
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const clockTicksPerSecond = 100

/** A pino line with its `time` (the daemon's clock when it logged). */
export interface LogLine extends ProcessLogLine {
  readonly time: number
}

export interface HeapSample {
  readonly at: number
  readonly heapUsed: number
  readonly rss: number
  /** The daemon's event-loop stalls since the previous sample. */
  readonly stalls: ReadonlyArray<Stall>
  /** The daemon's GC pauses over 2 ms since the previous sample (start, duration). */
  readonly gcPauses: ReadonlyArray<{ readonly at: number; readonly ms: number }>
}

export interface Daemon {
  readonly pid: number
  /** Date.now() just before spawn. */
  readonly spawnedAt: number
  readonly logs: () => ReadonlyArray<LogLine>
  readonly stderr: () => string
  readonly exited: () => boolean
  /** VmRSS and VmHWM (peak) in MB, from /proc. */
  readonly rssMb: () => { readonly rss: number; readonly peak: number }
  /** CPU time used so far (user + system), in seconds, from /proc. */
  readonly cpuSeconds: () => number
  /** Asks the preloaded probe for a post-GC heap figure; resolves with it. */
  readonly heapSample: () => Promise<HeapSample>
  /** SIGTERM, SIGKILL after `graceMs`; resolves once it has exited. */
  readonly stop: (graceMs?: number) => Promise<void>
}

/**
 * `bin/scorebridge run --config FILE` as its own process, as systemd runs it. Its pino lines
 * (stdout) are kept parsed; its heap is read through `heap-probe.mjs`, preloaded with
 * `--expose-gc` through NODE_OPTIONS.
 */
export const startDaemon = (
  config: string,
  env: Readonly<Record<string, string>>,
  heapFile: string,
  /** More probes to preload beside the heap probe (the backlog phase's loop-delay probe). */
  preload: ReadonlyArray<string> = []
): Daemon => {
  const spawnedAt = Date.now()
  const imports = [probe, ...preload].map((module) => `--import=${pathToFileURL(module).href}`).join(" ")
  const daemon = startScorebridgeDaemon(config, {
    env: { ...env, NODE_OPTIONS: `--expose-gc ${imports}`, SCOREBRIDGE_BENCH_HEAP_FILE: heapFile }
  })
  const child = daemon.process
  const stderrTail = daemon.stderr
  // Every pino line has its time; a line that is not JSON gets the moment it was seen.
  const logs = () => daemon.logs().map((line) => ("time" in line && typeof line.time === "number" ? line : { ...line, time: line.seenAt }) as LogLine)
  const pid = child.pid!

  const status = (field: string): number => {
    const text = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1]
    if (kb === undefined) throw new Error(`no ${field} in /proc/${pid}/status`)
    return Number(kb) / 1024
  }

  const heapSample = async (): Promise<HeapSample> => {
    const before = existsSync(heapFile) ? readFileSync(heapFile, "utf8").split("\n").filter(Boolean).length : 0
    child.kill("SIGUSR2")
    for (let tries = 0; tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const lines = existsSync(heapFile) ? readFileSync(heapFile, "utf8").split("\n").filter(Boolean) : []
      if (lines.length > before) {
        const sample = JSON.parse(lines.at(-1)!) as HeapSample & { gc: boolean }
        if (!sample.gc) throw new Error("the daemon's heap probe has no gc(): --expose-gc did not reach it")
        return sample
      }
    }
    throw new Error(`the daemon's heap probe did not answer SIGUSR2 within 2 s (is it preloaded?); stderr: ${stderrTail()}`)
  }

  return {
    pid,
    spawnedAt,
    logs,
    stderr: stderrTail,
    exited: daemon.hasExited,
    rssMb: () => ({ rss: status("VmRSS"), peak: status("VmHWM") }),
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/PID/stat, after the parenthesised command name (which may hold spaces).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
      return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond
    },
    heapSample,
    stop: async (graceMs = 6_000) => {
      await daemon.stop({ graceMs })
    }
  }
}
