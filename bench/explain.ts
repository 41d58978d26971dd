/**
 * What the bench prints beside a figure so that a tail can be told apart from noise: where the
 * slowest sample spent its time, what the daemon, the bench and the machine were doing meanwhile,
 * and which request took a 429's slot. Only text: the phases print it.
 */
import type { RecordedRequest } from "../simulator/control-client.ts"
import type { LogLine } from "./daemon-process.ts"
import type { Matched } from "./deliveries.ts"
import type { recordMachinePressure } from "./machine-pressure.ts"
import type { recordStalls, Stall } from "./stalls.mjs"

/** The bench's own event loop and the machine, recorded across the loaded phases (each takes its share). */
export interface Watch {
  readonly bench: ReturnType<typeof recordStalls>
  readonly machine: ReturnType<typeof recordMachinePressure>
}

export interface Stalls {
  readonly daemon: ReadonlyArray<Stall>
  readonly bench: ReadonlyArray<Stall>
  /** The daemon's warnings (a slow disk says so). */
  readonly warnings: ReadonlyArray<LogLine>
  readonly machine: Watch["machine"]
}

/** The slowest sample split at the daemon's receive stamp: where a tail latency was spent. */
export const worst = (matched: Matched): string => {
  if (matched.latencies.length === 0) return ""
  const i = matched.latencies.indexOf(Math.max(...matched.latencies))
  const before = matched.beforeStamp[i]!
  return `; slowest: ${before} ms until the daemon stamped it, ${matched.latencies[i]! - before} ms from there to the simulator`
}

/**
 * The slowest samples over `overMs`, each with the request the simulator received just before
 * it: a click that waited for a rate slot shows the request that took the slot, one that did
 * not points at the daemon itself (event loop, GC, fsync).
 */
export const tail = (
  matched: Matched,
  requests: ReadonlyArray<RecordedRequest>,
  overMs: number,
  stalls: Stalls,
  count = 6
): Array<string> => {
  const bySeq = new Map(requests.map((r, i) => [r.seq, i]))
  return matched.latencies
    .map((latency, i) => ({ latency, i }))
    .filter((s) => s.latency > overMs)
    .sort((a, b) => b.latency - a.latency)
    .slice(0, count)
    .map(({ latency, i }) => {
      const at = bySeq.get(matched.seqs[i]!)
      const previous = at === undefined || at === 0 ? undefined : requests[at - 1]!
      const self = at === undefined ? undefined : requests[at]!
      const gap = previous === undefined || self === undefined ? "" :
        `; ${self.at - previous.at} ms after ${previous.method} ${previous.path.replace(/^\/public/, "")} (${previous.status})`
      const when = self === undefined ? "" : ` at ${new Date(self.at).toISOString().slice(11, 19)}Z`
      const during = self === undefined ? "" : stallsDuring(stalls, self.at - latency, self.at)
      return `    ${latency} ms${when} (${matched.beforeStamp[i]} ms before the stamp)${gap}${during}`
    })
}

/** Event-loop stalls of the daemon and of the bench (whose simulator answers) overlapping a sample. */
const stallsDuring = (stalls: Stalls, from: number, to: number): string => {
  const overlapping = (list: ReadonlyArray<Stall>) =>
    list.filter((stall) => stall.at < to && stall.at + stall.ms > from).map((stall) => `${stall.ms} ms`)
  const daemon = overlapping(stalls.daemon)
  const bench = overlapping(stalls.bench)
  // A slow outbox write is logged when it ends, so within the sample or just after it.
  const said = stalls.warnings.filter((line) => line.time >= from && line.time <= to + 100).map((line) => ` — daemon: "${line.msg}"`)
  const machine = stalls.machine.during(from, to)
  const pressure = machine === undefined
    ? ""
    : `; machine: steal ${machine.stealPercent.toFixed(0)} %, iowait ${machine.iowaitPercent.toFixed(0)} %, major faults ${machine.majorFaults}`
  return `; stalls: daemon ${daemon.length === 0 ? "none" : daemon.join(", ")}, bench ${bench.length === 0 ? "none" : bench.join(", ")}${pressure}${said.join("")}`
}

/** The longest dozen stalls, in time order (a soak has a forced GC a minute), as offsets from `from`. */
export const listed = (list: ReadonlyArray<Stall>, from: number): string =>
  list.length === 0 ? "none" : `${list.length}: ` + [...list].sort((a, b) => b.ms - a.ms).slice(0, 12).sort((a, b) => a.at - b.at)
    .map((stall) => `${stall.ms} ms at +${((stall.at - from) / 1000).toFixed(1)} s`).join(", ")

/** A loaded phase's stalls of the daemon and the bench since `from`, and the machine's pressure until now. */
export const stallsLine = (stalls: Stalls, from: number, note = ""): string =>
  `  event-loop stalls over 20 ms${note}: daemon ${listed(stalls.daemon, from)}; bench ${listed(stalls.bench, from)}; machine: ${stalls.machine.summary(from, Date.now())}`

/** Each 429 with the request before it: two requests inside one rate slot name the culprit. */
export const lines429 = (requests: ReadonlyArray<RecordedRequest>): Array<string> =>
  requests.flatMap((r, i) => {
    const previous = requests[i - 1]
    return r.status !== 429 || previous === undefined ? [] :
      [`  429: ${r.method} ${r.path}, ${r.at - previous.at} ms after ${previous.method} ${previous.path} (${previous.status})`]
  })
