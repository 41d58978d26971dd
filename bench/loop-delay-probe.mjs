// @ts-check
/**
 * The daemon's event-loop delay, measured inside it by perf_hooks.monitorEventLoopDelay and read
 * by the bench's backlog phase. Preloaded (NODE_OPTIONS --import) like heap-probe.mjs, so it
 * measures old and new daemons alike, whatever they export on /metrics. Plain JavaScript for the
 * same reason as the heap probe (no TypeScript stripper loaded into the daemon).
 *
 * Asked through a file, not a signal: SIGUSR2 belongs to the heap probe (whose forced GC would be
 * measured here) and SIGUSR1 starts Node's inspector. Once a second it reads
 * $SCOREBRIDGE_BENCH_LOOP_CONTROL; a new line `<n> reset` starts the histogram over, `<n> report`
 * appends `{"n":…,"at":…,"p50":…,"p99":…,"max":…,"count":…}` (ms) to $SCOREBRIDGE_BENCH_LOOP_FILE.
 *
 * The histogram records each interval between two of its timer's runs (every
 * $SCOREBRIDGE_BENCH_LOOP_RESOLUTION_MS); the delay is that interval minus the resolution (an idle
 * loop reads ~0), so a task that holds the loop for 30 ms shows as about 30 ms.
 */
import { appendFileSync, readFileSync } from "node:fs"
import { monitorEventLoopDelay } from "node:perf_hooks"

const file = process.env["SCOREBRIDGE_BENCH_LOOP_FILE"]
const control = process.env["SCOREBRIDGE_BENCH_LOOP_CONTROL"]
// The bench sets it (backlog-watch.ts); 2 ms as the daemon's own gauge (src/observability/loop-delay.ts):
// a stall of d ms shows as d − 2 to d ms, where at 10 ms a 10 ms stall could show as half of it.
const resolutionMs = Number(process.env["SCOREBRIDGE_BENCH_LOOP_RESOLUTION_MS"] ?? "2")

/** @param {number} ns */
const delayMs = (ns) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100)

if (file !== undefined && file !== "" && control !== undefined && control !== "") {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs })
  histogram.enable()
  let done = 0
  const timer = setInterval(() => {
    let lines
    try {
      lines = readFileSync(control, "utf8").split("\n").filter(Boolean)
    } catch {
      return
    }
    // Bounded: only the commands after the last one done, a handful per phase.
    for (const line of lines.slice(done)) {
      const [n, command] = line.split(" ")
      if (command === "reset") histogram.reset()
      if (command === "report") {
        appendFileSync(file, `${JSON.stringify({
          n: Number(n),
          at: Date.now(),
          p50: delayMs(histogram.percentile(50)),
          p99: delayMs(histogram.percentile(99)),
          max: delayMs(histogram.max),
          count: histogram.count
        })}\n`)
      }
    }
    done = lines.length
  }, 1_000)
  timer.unref()
}
