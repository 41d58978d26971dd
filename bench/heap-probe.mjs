// @ts-check
/**
 * Plain JavaScript on purpose: a preloaded .ts file would make Node load its TypeScript
 * stripper (amaro, a 3.8 MB script and a WebAssembly module) into the daemon, and the bench
 * would measure that instead of the daemon's own memory.
 *
 * Preloaded into the daemon by the bench and by the garbage fault test (NODE_OPTIONS="--expose-gc
 * --import …"), so its heap can be read without changing how `bin/scorebridge` starts. On SIGUSR2 it runs a full GC
 * (a heap figure right after one is comparable over time; a figure between collections mostly
 * measures garbage) and appends one JSON line to $SCOREBRIDGE_BENCH_HEAP_FILE. With
 * $SCOREBRIDGE_BENCH_HEAP_SNAPSHOTS set to a directory it also writes a heap snapshot there,
 * for `bench/heap-diff.ts` to say what grew (it blocks the daemon for a second or two: for
 * hunting a leak, not for latency figures). Each line also carries the daemon's event-loop
 * stalls over 20 ms since the previous line (`stalls.mjs`) and, with SCOREBRIDGE_BENCH_GC_PAUSES=1,
 * its GC pauses over 2 ms (the forced one included), to lay against slow latency samples.
 */
import { appendFileSync } from "node:fs"
import { join } from "node:path"
import { PerformanceObserver } from "node:perf_hooks"
import { getHeapCodeStatistics, getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from "node:v8"
import { recordStalls } from "./stalls.mjs"

const file = process.env["SCOREBRIDGE_BENCH_HEAP_FILE"]
const snapshots = process.env["SCOREBRIDGE_BENCH_HEAP_SNAPSHOTS"]
// bench/memory-breakdown.ts: V8's own figures (spaces, bytecode, script sources, malloc'ed by V8) on every line.
const detail = process.env["SCOREBRIDGE_BENCH_HEAP_DETAIL"] === "1"
/** @type {(() => void) | undefined} */
const collect = /** @type {{ gc?: () => void }} */ (globalThis).gc

/** What V8 itself says it holds, for bench/memory-breakdown.ts. */
const v8Detail = () => ({
  heapTotal: process.memoryUsage().heapTotal,
  arrayBuffers: process.memoryUsage().arrayBuffers,
  builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length)),
  v8: getHeapStatistics(),
  code: getHeapCodeStatistics(),
  spaces: getHeapSpaceStatistics().map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size, physical: s.physical_space_size }))
})

if (file !== undefined && file !== "") {
  const stalls = recordStalls(20)
  // GC pauses over 2 ms, to tell a late stamp held by the collector from one held by other work.
  /** @type {Array<{ at: number, ms: number }>} */
  const pauses = []
  // Opt-in: the observer's entries, one per scavenge, cost the daemon MB of RSS (92 → 98 MB at the slow-disk phase's end).
  if (process.env["SCOREBRIDGE_BENCH_GC_PAUSES"] === "1") new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > 2 && pauses.length < 10_000) pauses.push({ at: Math.round(performance.timeOrigin + entry.startTime), ms: Math.round(entry.duration * 10) / 10 })
    }
  }).observe({ entryTypes: ["gc"] })
  process.on("SIGUSR2", () => {
    collect?.()
    const memory = process.memoryUsage()
    const at = Date.now()
    appendFileSync(file, `${JSON.stringify({ at, gc: collect !== undefined, heapUsed: memory.heapUsed, rss: memory.rss, external: memory.external, stalls: stalls.take(), gcPauses: pauses.splice(0), ...(detail ? v8Detail() : {}) })}\n`)
    if (snapshots !== undefined && snapshots !== "") {
      setImmediate(() => writeHeapSnapshot(join(snapshots, `heap-${at}.heapsnapshot`)))
    }
  })
}
