import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { eventually } from "../../../scripts/support/eventually.ts"

const probe = join(import.meta.dirname, "../../../bench/heap-probe.mjs")
const keepBytecode = join(import.meta.dirname, "keep-bytecode.mjs")

/** The daemon's memory right after a full GC, in kB: what it holds, not what awaits collection. */
export interface AfterGc {
  readonly heapUsedKb: number
  readonly externalKb: number
  readonly rssKb: number
}

/**
 * The bench's heap probe (`bench/heap-probe.mjs`), preloaded into a fault daemon with
 * `--expose-gc` (and `keep-bytecode.mjs`): on SIGUSR2 it collects fully and appends one JSON line
 * to `file`. `env` goes to the daemon; `read` signals it and waits for the line.
 */
export const heapProbe = (file: string) => ({
  env: {
    NODE_OPTIONS: `--expose-gc --import=${pathToFileURL(probe).href} --import=${pathToFileURL(keepBytecode).href}`,
    SCOREBRIDGE_BENCH_HEAP_FILE: file
  },
  read: async (pid: number): Promise<AfterGc> => {
    // Only lines with their newline: the probe may be halfway through appending one.
    const lines = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(0, -1) : [])
    const before = lines().length
    process.kill(pid, "SIGUSR2")
    const line = await eventually("the daemon's heap probe to answer SIGUSR2", () => lines()[before], { timeoutMs: 15_000, intervalMs: 50 })
    const sample = JSON.parse(line) as { gc: boolean; heapUsed: number; external: number; rss: number }
    if (!sample.gc) throw new Error("the daemon's heap probe has no gc(): --expose-gc did not reach it")
    const kb = (bytes: number) => Math.round(bytes / 1024)
    return { heapUsedKb: kb(sample.heapUsed), externalKb: kb(sample.external), rssKb: kb(sample.rss) }
  }
})
