import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"
import type { ProtocolName } from "./consoles.ts"
import { tempDir } from "../scripts/support/temp-dir.ts"

const root = join(import.meta.dirname, "..")

/**
 * The flags `bin/scorebridge run` gives Node, read from the script itself so the bench cannot
 * drift from what an installed daemon runs with.
 */
export const daemonNodeFlags = (): ReadonlyArray<string> => {
  const script = readFileSync(join(root, "bin/scorebridge"), "utf8")
  const flags = /\$\{SCOREBRIDGE_NODE_FLAGS-([^}]*)\}/.exec(script)?.[1]
  if (flags === undefined) throw new Error("bin/scorebridge no longer names its default Node flags the way the bench reads them")
  return flags.trim().split(/\s+/)
}

/**
 * Decoder throughput as the daemon gets it: the same measurement as `measureDecoder`, bundled
 * (the daemon runs a bundle; TypeScript cannot be type-stripped without WebAssembly, which
 * --jitless turns off) and run in a child Node with the daemon's flags.
 */
export const measureDecodersUnderDaemonFlags = async (protocols: ReadonlyArray<ProtocolName>): Promise<Record<string, number>> => {
  const dir = tempDir("decode")
  try {
    const entry = join(dir, "entry.ts")
    writeFileSync(entry, [
      `import { measureDecoder } from ${JSON.stringify(join(import.meta.dirname, "decode-throughput.ts"))}`,
      `const figures = {}`,
      `for (const p of ${JSON.stringify(protocols)}) figures[p] = measureDecoder(p).mbPerS`,
      `console.log(JSON.stringify(figures))`
    ].join("\n"))
    const bundle = join(dir, "decode.mjs")
    await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: "node", format: "esm", target: "node24", logLevel: "warning" })
    const result = spawnSync(join(root, "node_modules/.bin/node"), [...daemonNodeFlags(), bundle], { encoding: "utf8", timeout: 120_000 })
    if (result.status !== 0) throw new Error(`decoder measurement under the daemon's flags failed: ${result.stderr}`)
    return JSON.parse(result.stdout) as Record<string, number>
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
