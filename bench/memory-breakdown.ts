/**
 * Where the daemon's resident memory goes, in about two minutes instead of the bench's eleven:
 * the bench's venue (simulator, mosquitto, 8 socat pty pairs, 8 basketball places with their
 * remotes, follow-ups on) and its daemon (`bin/scorebridge run` from the bundle, with the heap
 * probe), warmed up, then its steady load for `--seconds` (default 90). Prints the steady RSS
 * (median of samples taken as the bench takes them), then VmRSS split by mapping
 * (/proc/PID/smaps: the Node binary's text, read-only data and data, shared libraries, glibc's
 * main heap, thread stacks, the other anonymous memory) and what V8 says it holds (its spaces,
 * bytecode, script sources, what it malloc'ed), and the same split of an idle bare Node with the
 * daemon's flags. Last, one JSON line.
 *
 *   node bench/memory-breakdown.ts [--seconds 90] [--label TEXT] [--hold SECONDS]
 *
 * `--hold` keeps the venue and the daemon running that long after the figures (its pid is
 * printed), for a closer look with other tools (gdb, /proc/PID/pagemap).
 *
 * The daemon's flags and environment are bin/scorebridge's; SCOREBRIDGE_NODE_FLAGS (and any
 * MALLOC_* variable) set here reach it, to compare variants.
 */
import { spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { makeCleanup } from "./cleanup.ts"
import type { HeapSample } from "./daemon-process.ts"
import { loadAverage } from "./host.ts"
import { headings, say } from "./report.ts"
import { startupPhase } from "./startup.ts"
import { runSteady } from "./steady.ts"
import { sleep } from "./stats.ts"
import { tempDir } from "../scripts/support/temp-dir.ts"

const { values: args } = parseArgs({ options: { seconds: { type: "string", default: "90" }, label: { type: "string", default: "" }, hold: { type: "string", default: "0" } } })
const seconds = Number(args.seconds)
if (!(seconds >= 20 && seconds <= 3600)) {
  process.stderr.write("usage: node bench/memory-breakdown.ts [--seconds 20–3600 (default 90)] [--label TEXT]\n")
  process.exit(64)
}

const node = join(import.meta.dirname, "../node_modules/.bin/node")
const mb = (kb: number) => Math.round(kb / 102.4) / 10

interface Mapping {
  readonly start: bigint
  readonly sizeKb: number
  readonly perms: string
  readonly path: string
  readonly fields: Readonly<Record<string, number>>
}

const readSmaps = (pid: number): Array<Mapping> => {
  const mappings: Array<Mapping> = []
  let current: { start: bigint; sizeKb: number; perms: string; path: string; fields: Record<string, number> } | undefined
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (header !== null) {
      const start = BigInt(`0x${header[1]}`)
      current = { start, sizeKb: Number((BigInt(`0x${header[2]}`) - start) / 1024n), perms: header[3]!, path: header[4]!, fields: {} }
      mappings.push(current)
      continue
    }
    const field = /^(\w+):\s+(\d+) kB$/.exec(line)
    if (field !== null && current !== undefined) current.fields[field[1]!] = Number(field[2])
  }
  return mappings
}

/** Each mapping's part of VmRSS, by what it is. Thread stacks: glibc gives each thread an 8 MB anonymous mapping below a guard page. */
const groupOf = (m: Mapping, previous: Mapping | undefined): string => {
  if (m.path.endsWith("/bin/node")) return `node binary ${m.perms === "r-xp" ? "text" : m.perms === "r--p" ? "read-only data" : "data"}`
  if (/\.so(\.|$)/u.test(m.path)) return `shared libraries (${m.path.split("/").at(-1)!.replace(/\.so.*$/u, "")})`
  if (m.path.endsWith(".node")) return "native addons (.node)"
  if (m.path === "[heap]") return "glibc main heap ([heap])"
  if (m.path === "[stack]") return "main thread stack"
  if (m.path === "" && previous !== undefined && previous.path === "" && previous.perms === "---p" && m.sizeKb <= 8192 && m.sizeKb >= 1024) return "thread stacks"
  if (m.path === "") return "anonymous (V8 heap, malloc arenas and large blocks)"
  if (m.path.startsWith("[")) return "kernel ([vdso], [vvar])"
  return `other files (${m.path.split("/").at(-1)})`
}

interface Breakdown {
  readonly vmRssKb: number
  readonly threads: number
  readonly groups: ReadonlyArray<readonly [string, number]>
  readonly rssAnonKb: number
  readonly rssFileKb: number
}

const breakdown = (pid: number): Breakdown => {
  const mappings = readSmaps(pid)
  const groups = new Map<string, number>()
  mappings.forEach((m, i) => {
    const group = groupOf(m, mappings[i - 1])
    groups.set(group, (groups.get(group) ?? 0) + (m.fields["Rss"] ?? 0))
  })
  // Libraries under 256 kB resident in one line.
  const merged = new Map<string, number>()
  for (const [group, kb] of groups) {
    const key = group.startsWith("shared libraries") && kb < 256 ? "shared libraries (the others)" : group
    merged.set(key, (merged.get(key) ?? 0) + kb)
  }
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN)
  return {
    vmRssKb: field("VmRSS"),
    threads: readdirSync(`/proc/${pid}/task`).length,
    groups: [...merged].filter(([, kb]) => kb > 0).sort((a, b) => b[1] - a[1]),
    rssAnonKb: field("RssAnon"),
    rssFileKb: field("RssFile")
  }
}

const sayBreakdown = (title: string, b: Breakdown) => {
  say(`  ${title}: VmRSS ${mb(b.vmRssKb)} MB (file-backed ${mb(b.rssFileKb)}, anonymous ${mb(b.rssAnonKb)}), ${b.threads} threads`)
  for (const [group, kb] of b.groups) say(`    ${mb(kb).toFixed(1).padStart(6)} MB  ${group}`)
}

interface V8Detail {
  readonly heapTotal: number
  readonly arrayBuffers: number
  readonly builtins: ReadonlyArray<string>
  readonly external: number
  readonly v8: Readonly<Record<string, number>>
  readonly code: Readonly<Record<string, number>>
  readonly spaces: ReadonlyArray<{ readonly name: string; readonly size: number; readonly used: number; readonly physical: number }>
}

const toMb = (bytes: number) => Math.round(bytes / 2 ** 20 * 100) / 100

/** An idle bare Node with the daemon's flags and malloc settings, for the floor under everything the bundle adds. */
const bareNode = async (): Promise<Breakdown> => {
  const flags = (process.env["SCOREBRIDGE_NODE_FLAGS"] ?? "--jitless --max-semi-space-size=1 --max-old-space-size=384").split(" ").filter(Boolean)
  const child = spawn(node, [...flags, "-e", "setInterval(() => {}, 1000)"], {
    stdio: "ignore",
    env: { ...process.env, MALLOC_ARENA_MAX: process.env["MALLOC_ARENA_MAX"] ?? "2", MALLOC_MMAP_THRESHOLD_: process.env["MALLOC_MMAP_THRESHOLD_"] ?? "32768" }
  })
  await sleep(3_000)
  try {
    return breakdown(child.pid!)
  } finally {
    child.kill("SIGKILL")
  }
}

const main = async () => {
  process.env["SCOREBRIDGE_BENCH_HEAP_DETAIL"] = "1"
  say(`memory breakdown${args.label === "" ? "" : ` (${args.label})`}: load average at start ${loadAverage()}`)
  const heading = headings(3)
  const cleanup = makeCleanup()
  try {
    const dir = tempDir("memory")
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }))
    const { venue, daemon, startupMs } = await startupPhase(heading, cleanup, dir, { placeCount: 8, benchStartedAt: Date.now() })

    heading(`steady load for ${seconds} s (as the bench's steady phase: an action every 1.2 s, clock frames every 250 ms)`)
    const cpuBefore = daemon.cpuSeconds()
    const startedAt = Date.now()
    const steady = await runSteady(venue, daemon, { durationMs: seconds * 1000, heapEveryMs: 10_000, heapAfterMs: Math.min(30_000, seconds * 200), onProgress: say })
    const cpuPercent = (daemon.cpuSeconds() - cpuBefore) / ((Date.now() - startedAt) / 1000) * 100
    const rssSorted = [...steady.rssMb].sort((a, b) => a - b)
    const rssMedian = rssSorted[Math.floor(rssSorted.length / 2)]!
    const last = (await daemon.heapSample()) as HeapSample & V8Detail
    const daemonBreakdown = breakdown(daemon.pid)

    heading("where it goes")
    say(`  steady RSS median ${rssMedian.toFixed(1)} MB over ${steady.rssMb.length} samples (${rssSorted[0]!.toFixed(1)}–${rssSorted.at(-1)!.toFixed(1)}); start-up ${startupMs} ms; CPU ${cpuPercent.toFixed(1)} % of one core`)
    say(`  heap after GC: ${steady.heap.map((s) => toMb(s.heapUsed).toFixed(2)).join(" ")} MB`)
    sayBreakdown("daemon", daemonBreakdown)
    const spaces = last.spaces.map((s) => `${s.name.replace(/_space$/u, "")} ${toMb(s.physical)}/${toMb(s.used)}`).join(", ")
    const v8Physical = last.v8["total_physical_size"]!
    say(`  V8: heap resident ${toMb(v8Physical)} MB, used ${toMb(last.heapUsed)} MB (resident/used by space: ${spaces})`)
    say(`      bytecode and metadata ${toMb(last.code["bytecode_and_metadata_size"]!)} MB, script sources held outside the heap ${toMb(last.code["external_script_source_size"]!)} MB, code objects ${toMb(last.code["code_and_metadata_size"]!)} MB`)
    say(`      malloc'ed by V8 ${toMb(last.v8["malloced_memory"]!)} MB (peak ${toMb(last.v8["peak_malloced_memory"]!)}), external ${toMb(last.external)} MB of which array buffers ${toMb(last.arrayBuffers)} MB`)
    const bareModules = new Set(spawnSync(node, ["-p", "process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ')"], { encoding: "utf8" }).stdout.trim().split(" "))
    const beyondBare = last.builtins.filter((m) => !bareModules.has(m))
    say(`  Node's own modules loaded: ${last.builtins.length} (their sources are read from the Node binary's read-only data, and each adds its code and objects to the heap); beyond a bare Node's ${bareModules.size}: ${beyondBare.filter((m) => !m.startsWith("internal/")).join(" ")} (and ${beyondBare.filter((m) => m.startsWith("internal/")).length} internal ones)`)
    const anonymous = daemonBreakdown.groups.find(([g]) => g.startsWith("anonymous"))?.[1] ?? 0
    say(`  anonymous minus V8's resident heap ≈ ${mb(anonymous - v8Physical / 1024)} MB of malloc (arenas other than the main one, blocks over the mmap threshold) and V8 outside its heap`)
    const bare = await bareNode()
    sayBreakdown("bare node with the same flags, idle (node -e 'setInterval(…)')", bare)
    say(JSON.stringify({
      label: args.label,
      rss_mb_median: rssMedian,
      cpu_percent: Math.round(cpuPercent * 10) / 10,
      startup_ms: startupMs,
      heap_used_mb: toMb(last.heapUsed),
      v8_resident_mb: toMb(v8Physical),
      bytecode_mb: toMb(last.code["bytecode_and_metadata_size"]!),
      node_modules_loaded: last.builtins.length,
      groups_mb: Object.fromEntries(daemonBreakdown.groups.map(([g, kb]) => [g, mb(kb)])),
      bare_rss_mb: mb(bare.vmRssKb)
    }))
    const holdSeconds = Number(args.hold)
    if (holdSeconds > 0) {
      say(`holding the daemon (pid ${daemon.pid}) for ${holdSeconds} s, clock frames still coming`)
      await sleep(holdSeconds * 1000)
    }
  } finally {
    await cleanup.releaseAll()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`memory breakdown failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
