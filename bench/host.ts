import { readFileSync } from "node:fs"
import { cpus, freemem, totalmem } from "node:os"
import { round1 } from "./stats.ts"

/** The machine the figures come from: printed first and kept in the JSON line, since runs are only comparable on the same one. */
export interface Host {
  readonly nproc: number
  readonly cpu: string
  readonly memoryGb: number
  readonly freeGb: number
  readonly node: string
}

export const describeHost = (): Host => {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? "unknown"
  return { nproc: cpus().length, cpu, memoryGb: round1(totalmem() / 2 ** 30), freeGb: round1(freemem() / 2 ** 30), node: process.version }
}

/** Other work on the machine skews the latency tails: the load at start says whether there was any. */
export const loadAverage = (): string => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
