import { readFileSync } from "node:fs"

/**
 * One second of the whole machine: share of CPU time lost to the hypervisor and spent waiting for
 * the disk, and page faults that had to read from the disk (code or data paged in, by any process).
 */
export interface PressureSample {
  /** End of the second (ms since the epoch). */
  readonly at: number
  readonly stealPercent: number
  readonly iowaitPercent: number
  readonly majorFaults: number
}

/** user nice system idle iowait irq softirq steal, summed over all CPUs (USER_HZ ticks). */
const cpuTicks = (): ReadonlyArray<number> =>
  readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number)

const majorFaultCount = (): number => Number(/^pgmajfault (\d+)$/m.exec(readFileSync("/proc/vmstat", "utf8"))?.[1] ?? 0)

/**
 * Samples /proc/stat and /proc/vmstat once a second, so a stall seen by the daemon and the bench at the same
 * moment can be told apart: the virtual machine not running (steal), the disk (iowait), or a
 * process's own work (neither).
 */
export const recordMachinePressure = () => {
  const samples: Array<PressureSample> = []
  let previous = cpuTicks()
  let previousFaults = majorFaultCount()
  const timer = setInterval(() => {
    const now = cpuTicks()
    const faults = majorFaultCount()
    const delta = now.map((value, i) => value - previous[i]!)
    const majorFaults = faults - previousFaults
    previous = now
    previousFaults = faults
    const total = delta.reduce((sum, value) => sum + value, 0)
    if (total > 0) {
      samples.push({ at: Date.now(), stealPercent: (100 * delta[7]!) / total, iowaitPercent: (100 * delta[4]!) / total, majorFaults })
    }
    // Bounded: a day of seconds at most.
    if (samples.length > 86_400) samples.shift()
  }, 1_000)
  timer.unref()
  return {
    /** The worst steal and iowait of the seconds overlapping [from, to], and their major faults. */
    during: (from: number, to: number): Omit<PressureSample, "at"> | undefined => {
      const overlapping = samples.filter((sample) => sample.at > from && sample.at - 1_000 < to)
      if (overlapping.length === 0) return undefined
      return {
        stealPercent: Math.max(...overlapping.map((sample) => sample.stealPercent)),
        iowaitPercent: Math.max(...overlapping.map((sample) => sample.iowaitPercent)),
        majorFaults: overlapping.reduce((sum, sample) => sum + sample.majorFaults, 0)
      }
    },
    /** How many seconds in [from, to] lost over 5 % to steal, to iowait, and had major faults. */
    summary: (from: number, to: number): string => {
      const within = samples.filter((sample) => sample.at > from && sample.at <= to)
      const steal = within.filter((sample) => sample.stealPercent > 5).length
      const iowait = within.filter((sample) => sample.iowaitPercent > 5).length
      const faulting = within.filter((sample) => sample.majorFaults > 0)
      const faults = faulting.reduce((sum, sample) => sum + sample.majorFaults, 0)
      return `${steal} of ${within.length} s with steal over 5 %, ${iowait} with iowait over 5 %, ${faulting.length} with major page faults (${faults} in all)`
    },
    stop: () => clearInterval(timer)
  }
}
