/**
 * The daemon's performance figures (issue #7): latency of presses and score changes, drain rate,
 * memory and start-up of `bin/scorebridge run` as a separate process serving 8 places, plus the
 * decoders' throughput in-process. Prints figures as it goes and, last, one JSON line.
 *
 *   npm run bench                      # about 7 minutes
 *   npm run bench -- --soak 60         # steady phase of 60 minutes for the heap slope
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { cpus, freemem, totalmem, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { makeCleanup } from "./cleanup.ts"
import { type LogLine, startDaemon } from "./daemon-process.ts"
import { measureDecoder } from "./decode-throughput.ts"
import { daemonNodeFlags, measureDecodersUnderDaemonFlags } from "./decode-under-daemon-flags.ts"
import { protocols } from "../adapters/registry.ts"
import { accepted, allRequests, type Matched, matchClicks, matchScores, pendingScores } from "./deliveries.ts"
import type { RecordedRequest } from "../src/simulator/control-client.ts"
import { drainRate, runSaturated } from "./saturated.ts"
import { percentiles, round1, round2, round3, sleep, slope } from "./stats.ts"
import { readyDefinition, waitUntilReady } from "./startup.ts"
import { recordMachinePressure } from "./machine-pressure.ts"
import { recordStalls, type Stall } from "./stalls.mjs"
import { runSteady, startTicking } from "./steady.ts"
import { pressButton, requestsPerSecond, startVenue, token, type Venue, writeScoreChange } from "./venue.ts"

const { values: args } = parseArgs({
  options: {
    soak: { type: "string", default: "2.5" },
    backlog: { type: "string", default: "24" }
  }
})
const soakMinutes = Number(args.soak)
const backlogPerPlace = Number(args.backlog)
if (!(soakMinutes > 0 && soakMinutes <= 24 * 60) || !(Number.isInteger(backlogPerPlace) && backlogPerPlace > 0 && backlogPerPlace <= 200)) {
  process.stderr.write("usage: node bench/run.ts [--soak MINUTES (0–1440, default 2.5)] [--backlog ENTRIES_PER_PLACE (default 24)]\n")
  process.exit(64)
}
const placeCount = 8

/**
 * The daemon runs from the bundle, as systemd runs it: a bundle older than the source would be
 * measured in place of the code under test (it happened). `npm run bench` builds it first.
 */
const assertBundleFresh = () => {
  const root = join(import.meta.dirname, "..")
  const bundle = join(root, "dist/scorebridge.mjs")
  const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0
  const newer = ["src", "adapters"].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => statSync(file).mtimeMs > builtAt))
  if (newer.length > 0) {
    process.stderr.write(`dist/scorebridge.mjs is older than ${newer.length} source file(s), e.g. ${newer[0]}: run \`npm run build\` (npm run bench does)\n`)
    process.exit(65)
  }
}
assertBundleFresh()
const say = (text: string) => process.stdout.write(`${text}\n`)
const mb = (bytes: number) => bytes / 2 ** 20

/** Waits until the outbox is empty and the simulator has seen nothing for `quietMs` (startup look-ups, warm-up). */
const settle = async (venue: Venue, quietMs: number, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const pending = [...pendingScores(venue).values()].reduce((n, c) => n + c, 0)
    const last = (await allRequests(venue)).at(-1)
    if (pending === 0 && (last === undefined || Date.now() - last.at >= quietMs)) return
    await sleep(250)
  }
  throw new Error(`the daemon did not settle within ${timeoutMs} ms (outbox not empty or requests still going out)`)
}

const machine = () => {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? "unknown"
  return { nproc: cpus().length, cpu, memoryGb: round1(totalmem() / 2 ** 30), freeGb: round1(freemem() / 2 ** 30), node: process.version }
}

/** The slowest sample split at the daemon's receive stamp: where a tail latency was spent. */
const worst = (matched: Matched): string => {
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
const tail = (
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

interface Stalls {
  readonly daemon: ReadonlyArray<Stall>
  readonly bench: ReadonlyArray<Stall>
  /** The daemon's warnings (a slow disk says so). */
  readonly warnings: ReadonlyArray<LogLine>
  readonly machine: ReturnType<typeof recordMachinePressure>
}

/** The longest dozen stalls, in time order (a soak has a forced GC a minute), as offsets from `from`. */
const listed = (list: ReadonlyArray<Stall>, from: number): string =>
  list.length === 0 ? "none" : `${list.length}: ` + [...list].sort((a, b) => b.ms - a.ms).slice(0, 12).sort((a, b) => a.at - b.at)
    .map((stall) => `${stall.ms} ms at +${((stall.at - from) / 1000).toFixed(1)} s`).join(", ")

const main = async () => {
  const startedAt = Date.now()
  const host = machine()
  say(`scorebridge bench — ${host.nproc} CPUs (${host.cpu}), ${host.memoryGb} GB RAM (${host.freeGb} GB free), Node ${host.node}`)
  say(`load average at start: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} (other work on this machine skews latency)`)

  const flags = daemonNodeFlags().join(" ")
  say(`\n[1/5] decoders (target ≥ 1.5 MB/s each): under the daemon's flags (${flags}), and with the JIT`)
  const protocolNames = ["daktronics-rtd", "stramatel-452m", "lines", "json"] as const
  const asDaemon = await measureDecodersUnderDaemonFlags(protocolNames)
  const decode: Record<string, number> = {}
  const decodeJit: Record<string, number> = {}
  for (const protocol of protocolNames) {
    const figure = measureDecoder(protocol)
    decode[protocol] = round2(asDaemon[protocol]!)
    decodeJit[protocol] = round2(figure.mbPerS)
    say(`  ${protocol.padEnd(15)} ${asDaemon[protocol]!.toFixed(1).padStart(7)} MB/s as the daemon runs, ${figure.mbPerS.toFixed(1).padStart(6)} MB/s with the JIT  (${figure.frames} frames, ${figure.readings} readings)`)
  }

  const cleanup = makeCleanup()
  try {
    const dir = mkdtempSync(join(tmpdir(), "scorebridge-bench-"))
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }))

    say(`\n[2/5] venue: simulator at ${requestsPerSecond} request/s, mosquitto, ${placeCount} socat pty pairs; daemon start-up`)
    const venue = await startVenue(cleanup, dir, placeCount)
    const daemon = startDaemon(venue.configPath, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap.ndjson"))
    cleanup.defer(() => daemon.stop())
    const startupMs = await waitUntilReady(daemon, placeCount)
    say(`  start-up ${startupMs} ms (${readyDefinition})`)

    const stopTicking = startTicking(venue)
    cleanup.defer(stopTicking)
    // One change and one press per place: JIT, connections and the live-event look-ups warm up,
    // and a press that never arrives here means a subscription is not live.
    for (const place of venue.places) {
      writeScoreChange(place)
      await pressButton(venue, place)
      await sleep(50)
    }
    await settle(venue, 2_500, 90_000)
    const warmClicks = (await allRequests(venue)).filter((r) => r.path.endsWith("/clicks") && accepted(r)).length
    if (warmClicks < placeCount) throw new Error(`only ${warmClicks} of ${placeCount} warm-up presses became clicks`)
    say(`  warmed up and quiet after ${Math.round((Date.now() - startedAt) / 1000)} s`)

    say(`\n[3/5] steady state for ${soakMinutes} min: one score change or press every 1.2 s, clock frames every 250 ms on every place`)
    const cpuBeforeSteady = daemon.cpuSeconds()
    const steadyStartedAt = Date.now()
    const benchStalls = recordStalls(20)
    const machine = recordMachinePressure()
    cleanup.defer(machine.stop)
    const steady = await runSteady(venue, daemon, {
      durationMs: soakMinutes * 60_000,
      heapEveryMs: soakMinutes > 10 ? 60_000 : 10_000,
      heapAfterMs: Math.min(30_000, soakMinutes * 60_000 * 0.2),
      onProgress: say
    })
    const steadyCpu = (daemon.cpuSeconds() - cpuBeforeSteady) / ((Date.now() - steadyStartedAt) / 1000)
    await settle(venue, 1_500, 30_000)
    const steadyRequests = await allRequests(venue)
    const stalls = {
      daemon: [...steady.heap, await daemon.heapSample()].flatMap((sample) => sample.stalls).filter((stall) => stall.at >= steadyStartedAt),
      bench: benchStalls.take(),
      warnings: daemon.logs().filter((line) => line.level >= 40),
      machine
    }
    say(`  event-loop stalls over 20 ms (the heap samples' forced GCs included): daemon ${listed(stalls.daemon, steadyStartedAt)}; bench ${listed(stalls.bench, steadyStartedAt)}; machine: ${machine.summary(steadyStartedAt, Date.now())}`)
    const clickIdle = matchClicks(steadyRequests, steady.presses)
    // A partial-update console's change is held for its settle window (80 ms for RTD) by design:
    // its latency is reported apart, so the idle target keeps measuring the daemon's own delay.
    const settled = (write: (typeof steady.writes)[number]) => protocols[write.place.console.protocol]!.updates === "partial"
    const scoreIdle = matchScores(steadyRequests, steady.writes.filter((w) => !settled(w)))
    const scoreSettled = matchScores(steadyRequests, steady.writes.filter(settled))
    const clickIdleP = percentiles(clickIdle.latencies)
    const scoreIdleP = percentiles(scoreIdle.latencies)
    const scoreSettledP = percentiles(scoreSettled.latencies)
    say(`  click idle: p50 ${clickIdleP.p50} ms, p99 ${clickIdleP.p99} ms, max ${clickIdleP.max} ms (n=${clickIdleP.n}, lost ${clickIdle.lost})${worst(clickIdle)}`)
    say(`  score idle: p50 ${scoreIdleP.p50} ms, p99 ${scoreIdleP.p99} ms, max ${scoreIdleP.max} ms (n=${scoreIdleP.n}, lost ${scoreIdle.lost})${worst(scoreIdle)}`)
    say(`  score idle, settled (RTD, held 80 ms): p50 ${scoreSettledP.p50} ms, p99 ${scoreSettledP.p99} ms, max ${scoreSettledP.max} ms (n=${scoreSettledP.n}, lost ${scoreSettled.lost})`)
    for (const [what, matched, overMs] of [["click", clickIdle, 20], ["score", scoreIdle, 25]] as const) {
      const slow = tail(matched, steadyRequests, overMs, stalls)
      if (slow.length > 0) say(`  slowest idle ${what}s over ${overMs} ms:\n${slow.join("\n")}`)
    }
    const heapPoints = steady.heap.map((s) => ({ x: (s.at - steady.heap[0]!.at) / 3_600_000, y: mb(s.heapUsed) }))
    const heapGrowth = slope(heapPoints)
    const rssSorted = [...steady.rssMb].sort((a, b) => a - b)
    const rssMb = rssSorted[Math.floor(rssSorted.length / 2)] ?? daemon.rssMb().rss
    const heapSpanMin = heapPoints.length < 2 ? 0 : heapPoints.at(-1)!.x * 60
    say(`  daemon heap after GC: ${heapPoints.map((p) => p.y.toFixed(2)).join(" ")} MB → ${heapGrowth.toFixed(2)} MB/h over ${heapSpanMin.toFixed(1)} min`)
    say(`  daemon RSS (median of steady samples): ${rssMb.toFixed(1)} MB`)
    say(`  daemon CPU: ${(steadyCpu * 100).toFixed(1)} % of one core (8 consoles ticking 4×/s, an action every 1.2 s, heap samples)`)

    say(`\n[4/5] saturated: ${backlogPerPlace} score changes on every place at once, presses while the backlog drains`)
    const saturatedStartedAt = Date.now()
    const saturated = await runSaturated(venue, { perPlace: backlogPerPlace, onProgress: say })
    const saturatedStalls = {
      daemon: (await daemon.heapSample()).stalls.filter((stall) => stall.at >= saturatedStartedAt),
      bench: benchStalls.take(),
      warnings: daemon.logs().filter((line) => line.level >= 40),
      machine
    }
    benchStalls.stop()
    say(`  event-loop stalls over 20 ms: daemon ${listed(saturatedStalls.daemon, saturatedStartedAt)}; bench ${listed(saturatedStalls.bench, saturatedStartedAt)}; machine: ${machine.summary(saturatedStartedAt, Date.now())}`)
    const clickSat = matchClicks(saturated.requests, saturated.presses)
    const backlogScores = matchScores(saturated.requests, saturated.backlog)
    const clickSatP = percentiles(clickSat.latencies)
    const drain = drainRate(saturated)
    say(`  drained: ${saturated.drained ? "yes" : "NO (deadline)"}; backlog entries delivered ${backlogScores.latencies.length}/${saturated.backlog.length}`)
    say(`  click saturated: p50 ${clickSatP.p50} ms, p99 ${clickSatP.p99} ms, max ${clickSatP.max} ms (n=${clickSatP.n}, lost ${clickSat.lost})${worst(clickSat)}`)
    const slowSaturated = tail(clickSat, saturated.requests, 1050, saturatedStalls)
    if (slowSaturated.length > 0) say(`  slowest saturated clicks over 1050 ms:\n${slowSaturated.join("\n")}`)
    say(`  drain: ${drain.requests} requests in ${drain.seconds.toFixed(1)} s = ${drain.perSecond.toFixed(3)}/s (allowed ${requestsPerSecond}/s)`)

    stopTicking()
    const everything = await allRequests(venue)
    const http429 = everything.filter((r) => r.status === 429).length
    // Each 429 with the request before it: two requests inside one rate slot name the culprit.
    for (const [i, r] of everything.entries()) {
      const previous = everything[i - 1]
      if (r.status !== 429 || previous === undefined) continue
      say(`  429: ${r.method} ${r.path}, ${r.at - previous.at} ms after ${previous.method} ${previous.path} (${previous.status})`)
    }
    const rssEnd = daemon.rssMb()
    const daemonLogs = daemon.logs()
    const warnings = daemonLogs.filter((l) => l.level >= 40).length
    await daemon.stop()

    say("\n[5/5] summary against the targets of issue #7")
    const checks: Array<[string, boolean, string]> = [
      ["click saturated p99 ≤ 1050 ms", clickSatP.p99 <= 1050, `${clickSatP.p99} ms`],
      ["click idle p99 ≤ 20 ms", clickIdleP.p99 <= 20, `${clickIdleP.p99} ms`],
      ["score idle p50 ≤ 10 ms", scoreIdleP.p50 <= 10, `${scoreIdleP.p50} ms`],
      ["score idle p99 ≤ 25 ms", scoreIdleP.p99 <= 25, `${scoreIdleP.p99} ms`],
      ["drain ratio ≥ 0.95", drain.perSecond / requestsPerSecond >= 0.95, round3(drain.perSecond / requestsPerSecond).toString()],
      ["http 429 = 0", http429 === 0, String(http429)],
      ["rss ≤ 85 MB", rssMb <= 85, `${rssMb.toFixed(1)} MB`],
      ["heap growth ≤ 1 MB/h", heapGrowth <= 1, `${heapGrowth.toFixed(2)} MB/h (${heapSpanMin.toFixed(1)} min of samples)`],
      ["decoders ≥ 1.5 MB/s", Object.values(decode).every((v) => v >= 1.5), `min ${Math.min(...Object.values(decode))} MB/s`],
      ["start-up ≤ 1500 ms", startupMs <= 1500, `${startupMs} ms`]
    ]
    for (const [target, met, figure] of checks) say(`  ${met ? "met   " : "MISSED"} ${target.padEnd(32)} ${figure}`)
    say(`  daemon warnings/errors logged: ${warnings}; bench took ${Math.round((Date.now() - startedAt) / 1000)} s`)

    say(JSON.stringify({
      click_latency_ms_idle: { p50: clickIdleP.p50, p99: clickIdleP.p99, max: clickIdleP.max, n: clickIdleP.n, lost: clickIdle.lost },
      click_latency_ms_saturated: { p50: clickSatP.p50, p99: clickSatP.p99, max: clickSatP.max, n: clickSatP.n, lost: clickSat.lost },
      score_latency_ms_idle: { p50: scoreIdleP.p50, p99: scoreIdleP.p99, max: scoreIdleP.max, n: scoreIdleP.n, lost: scoreIdle.lost },
      score_latency_ms_idle_settled: { p50: scoreSettledP.p50, p99: scoreSettledP.p99, max: scoreSettledP.max, n: scoreSettledP.n, lost: scoreSettled.lost },
      drain_rate_ratio: round3(drain.perSecond / requestsPerSecond),
      drain: { requests: drain.requests, seconds: round1(drain.seconds), drained: saturated.drained, backlog: saturated.backlog.length },
      http_429_count: http429,
      rss_mb: round1(rssMb),
      rss_peak_mb: round1(rssEnd.peak),
      cpu_percent_steady: round1(steadyCpu * 100),
      heap_growth_mb_per_hour: round2(heapGrowth),
      heap_method: `post-GC heapUsed of the daemon (preloaded bench/heap-probe.mjs, --expose-gc, SIGUSR2), ${heapPoints.length} samples over ${heapSpanMin.toFixed(1)} min, least-squares slope`,
      heap_used_mb_last: heapPoints.length === 0 ? null : round2(heapPoints.at(-1)!.y),
      decode_mb_per_s: decode,
      decode_mb_per_s_with_jit: decodeJit,
      daemon_node_flags: flags,
      startup_ms: startupMs,
      startup_definition: readyDefinition,
      places: placeCount,
      requests_per_second: requestsPerSecond,
      soak_minutes: soakMinutes,
      machine: host,
      duration_s: Math.round((Date.now() - startedAt) / 1000)
    }))
  } finally {
    await cleanup.releaseAll()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
