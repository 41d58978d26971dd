/**
 * Preloaded into the daemon by the bench only (NODE_OPTIONS="--expose-gc --import …"), so its
 * heap can be read without changing how `bin/scorebridge` starts. On SIGUSR2 it runs a full GC
 * (a heap figure right after one is comparable over time; a figure between collections mostly
 * measures garbage) and appends one JSON line to $SCOREBRIDGE_BENCH_HEAP_FILE.
 */
import { appendFileSync } from "node:fs"

const file = process.env["SCOREBRIDGE_BENCH_HEAP_FILE"]
const collect = (globalThis as { gc?: () => void }).gc

if (file !== undefined && file !== "") {
  process.on("SIGUSR2", () => {
    collect?.()
    const memory = process.memoryUsage()
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), gc: collect !== undefined, heapUsed: memory.heapUsed, rss: memory.rss, external: memory.external })}\n`)
  })
}
