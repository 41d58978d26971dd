/**
 * The daemon's performance figures (issue #7): latency of presses and score changes, drain rate,
 * memory and start-up of `bin/scorebridge run` as a separate process serving 8 places, plus the
 * decoders' throughput in-process; then (issue #14) a second daemon whose state directory is on
 * ext4 over a slow device whose every fsync really takes 500 ms (test/support/slow-disk.ts): stamp
 * error, click latency and the delay other courts' entries get while one court's write is stalled.
 * Prints figures as it goes and, last, one JSON line.
 *
 *   npm run bench                      # about 11 minutes
 *   npm run bench -- --soak 60         # steady phase of 60 minutes for the heap slope
 *   npm run bench -- --slow-disk-only  # start-up, warm-up and the slow-disk phase only (about 3 minutes)
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
import { accepted, allRequests, type Matched, matchClicks, matchScores, settle } from "./deliveries.ts"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { drainRate, runSaturated } from "./saturated.ts"
import { fsyncDelayMs, runSlowDisk } from "./slow-disk.ts"
import { percentiles, round1, round2, round3, sleep, slope } from "./stats.ts"
import { readyDefinition, waitUntilReady } from "./startup.ts"
import { recordMachinePressure } from "./machine-pressure.ts"
import { recordStalls, type Stall } from "./stalls.mjs"
import { runSteady, startTicking } from "./steady.ts"
import { pressButton, requestsPerSecond, startVenue, token, writeScoreChange } from "./venue.ts"
import { slowDiskUnavailable } from "../test/support/slow-disk.ts"

const { values: args } = parseArgs({
  options: {
    soak: { type: "string", default: "2.5" },
    backlog: { type: "string", default: "24" },
    "slow-disk-only": { type: "boolean", default: false }
  }
})
const soakMinutes = Number(args.soak)
const backlogPerPlace = Number(args.backlog)
const slowDiskOnly = args["slow-disk-only"]
if (!(soakMinutes > 0 && soakMinutes <= 24 * 60) || !(Number.isInteger(backlogPerPlace) && backlogPerPlace > 0 && backlogPerPlace <= 200)) {
  process.stderr.write("usage: node bench/run.ts [--soak MINUTES (0–1440, default 2.5)] [--backlog ENTRIES_PER_PLACE (default 24)] [--slow-disk-only]\n")
  process.exit(64)
}
const placeCount = 8
// Before anything starts: the slow-disk phase needs FUSE and a loop device, and a bench without it would not measure issue 14.
const noSlowDisk = slowDiskUnavailable()
if (noSlowDisk !== undefined) {
  process.stderr.write(`bench: cannot run the slow-disk phase: ${noSlowDisk}\n`)
  process.exit(69)
}

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
  if (slowDiskOnly) say("--slow-disk-only: no decoder, steady or saturated phase")
  const phaseCount = slowDiskOnly ? 3 : 6
  let phase = 0
  const heading = (text: string) => say(`\n[${++phase}/${phaseCount}] ${text}`)
  // Each phase adds its targets and its keys of the JSON line; --slow-disk-only has only some.
  const checks: Array<[string, boolean, string]> = []
  const figures: Record<string, unknown> = {}

  const flags = daemonNodeFlags().join(" ")
  const decode: Record<string, number> = {}
  const decodeJit: Record<string, number> = {}
  if (!slowDiskOnly) {
    heading(`decoders (target ≥ 1.5 MB/s each): under the daemon's flags (${flags}), and with the JIT`)
    const protocolNames = ["daktronics-rtd", "stramatel-452m", "lines", "json"] as const
    const asDaemon = await measureDecodersUnderDaemonFlags(protocolNames)
    for (const protocol of protocolNames) {
      const figure = measureDecoder(protocol)
      decode[protocol] = round2(asDaemon[protocol]!)
      decodeJit[protocol] = round2(figure.mbPerS)
      say(`  ${protocol.padEnd(15)} ${asDaemon[protocol]!.toFixed(1).padStart(7)} MB/s as the daemon runs, ${figure.mbPerS.toFixed(1).padStart(6)} MB/s with the JIT  (${figure.frames} frames, ${figure.readings} readings)`)
    }
  }

  const cleanup = makeCleanup()
  try {
    const dir = mkdtempSync(join(tmpdir(), "scorebridge-bench-"))
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }))

    heading(`venue: simulator at ${requestsPerSecond} request/s, mosquitto, ${placeCount} socat pty pairs; daemon start-up`)
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

    if (!slowDiskOnly) {
      heading(`steady state for ${soakMinutes} min: one score change or press every 1.2 s, clock frames every 250 ms on every place`)
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

      heading(`saturated: ${backlogPerPlace} score changes on every place at once, presses while the backlog drains`)
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

      const rssEnd = daemon.rssMb()
      checks.push(
        ["click saturated p99 ≤ 1050 ms", clickSatP.p99 <= 1050, `${clickSatP.p99} ms`],
        ["click idle p99 ≤ 20 ms", clickIdleP.p99 <= 20, `${clickIdleP.p99} ms`],
        ["score idle p50 ≤ 10 ms", scoreIdleP.p50 <= 10, `${scoreIdleP.p50} ms`],
        ["score idle p99 ≤ 25 ms", scoreIdleP.p99 <= 25, `${scoreIdleP.p99} ms`],
        ["drain ratio ≥ 0.95", drain.perSecond / requestsPerSecond >= 0.95, round3(drain.perSecond / requestsPerSecond).toString()]
      )
      Object.assign(figures, {
        click_latency_ms_idle: { p50: clickIdleP.p50, p99: clickIdleP.p99, max: clickIdleP.max, n: clickIdleP.n, lost: clickIdle.lost },
        click_latency_ms_saturated: { p50: clickSatP.p50, p99: clickSatP.p99, max: clickSatP.max, n: clickSatP.n, lost: clickSat.lost },
        score_latency_ms_idle: { p50: scoreIdleP.p50, p99: scoreIdleP.p99, max: scoreIdleP.max, n: scoreIdleP.n, lost: scoreIdle.lost },
        score_latency_ms_idle_settled: { p50: scoreSettledP.p50, p99: scoreSettledP.p99, max: scoreSettledP.max, n: scoreSettledP.n, lost: scoreSettled.lost },
        drain_rate_ratio: round3(drain.perSecond / requestsPerSecond),
        drain: { requests: drain.requests, seconds: round1(drain.seconds), drained: saturated.drained, backlog: saturated.backlog.length },
        // The 429 count goes here once the slow-disk phase is done (it covers the whole run).
        http_429_count: 0,
        rss_mb: round1(rssMb),
        rss_peak_mb: round1(rssEnd.peak),
        cpu_percent_steady: round1(steadyCpu * 100),
        heap_growth_mb_per_hour: round2(heapGrowth),
        heap_method: `post-GC heapUsed of the daemon (preloaded bench/heap-probe.mjs, --expose-gc, SIGUSR2), ${heapPoints.length} samples over ${heapSpanMin.toFixed(1)} min, least-squares slope`,
        heap_used_mb_last: heapPoints.length === 0 ? null : round2(heapPoints.at(-1)!.y),
        decode_mb_per_s: decode,
        decode_mb_per_s_with_jit: decodeJit,
        daemon_node_flags: flags
      })
      checks.push(
        ["rss ≤ 85 MB", rssMb <= 85, `${rssMb.toFixed(1)} MB`],
        ["heap growth ≤ 1 MB/h", heapGrowth <= 1, `${heapGrowth.toFixed(2)} MB/h (${heapSpanMin.toFixed(1)} min of samples)`],
        ["decoders ≥ 1.5 MB/s", Object.values(decode).every((v) => v >= 1.5), `min ${Math.min(...Object.values(decode))} MB/s`]
      )
    }

    stopTicking()
    const everything = await allRequests(venue)
    // Each 429 with the request before it: two requests inside one rate slot name the culprit.
    const say429s = (requests: ReadonlyArray<RecordedRequest>): number => {
      for (const [i, r] of requests.entries()) {
        const previous = requests[i - 1]
        if (r.status !== 429 || previous === undefined) continue
        say(`  429: ${r.method} ${r.path}, ${r.at - previous.at} ms after ${previous.method} ${previous.path} (${previous.status})`)
      }
      return requests.filter((r) => r.status === 429).length
    }
    let http429 = say429s(everything)
    const warnings = daemon.logs().filter((l) => l.level >= 40).length
    await daemon.stop()

    heading(`slow disk: a second daemon with its state directory on ext4 over a slow device (FUSE) where every fsync takes ${fsyncDelayMs} ms; presses on court-1, one score change on each of courts 2–8 while a court-1 press's writes stall`)
    const slow = await runSlowDisk(venue, cleanup, dir, { onProgress: say })
    http429 += say429s(slow.requests)
    const stampP = percentiles(slow.stampErrors)
    const clickSlowP = percentiles(slow.idle.latencies)
    const behindP = percentiles(slow.behind.latencies)
    const otherP = percentiles(slow.otherPlaceDelays.map((d) => d.delayMs))
    const fsyncMs = slow.fsyncs.map((f) => f.endedAt - f.startedAt)
    const fsyncP = percentiles(fsyncMs)
    const lateP = percentiles(slow.rounds.map((r) => r.pressLateMs))
    say(`  ${slow.rounds.length} rounds in ${Math.round((slow.endedAt - slow.startedAt) / 1000)} s; the bench published the round presses p50 ${lateP.p50} ms, max ${lateP.max} ms later than planned`)
    say(`  stamp error (daemon stamp − write/publish, entries and clicks): p50 ${stampP.p50} ms, p99 ${stampP.p99} ms, max ${stampP.max} ms (n=${stampP.n})`)
    // GC pauses only when asked for (SCOREBRIDGE_BENCH_GC_PAUSES=1): observing them costs the daemon memory.
    const gcObserved = process.env["SCOREBRIDGE_BENCH_GC_PAUSES"] === "1"
    for (const late of slow.lateStamps) {
      const pauses = slow.gcPauses.filter((p) => p.at + p.ms >= late.at && p.at <= late.at + late.ms)
      const gc = gcObserved ? `; daemon GC pauses meanwhile: ${pauses.map((p) => `${p.ms} ms`).join(", ") || "none"}` : ""
      say(`    ${late.ms} ms: ${late.what}, +${((late.at - slow.startedAt) / 1000).toFixed(1)} s${gc}`)
    }
    if (gcObserved) {
      const pausesP = percentiles(slow.gcPauses.map((p) => p.ms))
      say(`  daemon GC pauses over 2 ms in the rounds: ${pausesP.n}${pausesP.n === 0 ? "" : `, p50 ${pausesP.p50} ms, max ${pausesP.max} ms`}`)
    }
    say(`  click latency, idle presses: p50 ${clickSlowP.p50} ms, p99 ${clickSlowP.p99} ms, max ${clickSlowP.max} ms (n=${clickSlowP.n}, lost ${slow.idle.lost})${worst(slow.idle)}`)
    say(`  other-place delay (courts 2–8 entries after their round's first, beyond the rate limit): p50 ${otherP.p50} ms, p99 ${otherP.p99} ms, max ${otherP.max} ms (n=${otherP.n}; entries lost ${slow.entries.lost})`)
    const worstDelays = [...slow.otherPlaceDelays].sort((a, b) => b.delayMs - a.delayMs).slice(0, 3).filter((d) => d.delayMs > 50)
    for (const d of worstDelays) {
      say(`    ${Math.round(d.delayMs)} ms: ${d.entry.path.replace(/^\/public/, "")} at ${new Date(d.entry.at).toISOString().slice(11, 23)}Z, ${d.entry.at - d.previous.at} ms after ${d.previous.method} ${d.previous.path.replace(/^\/public/, "")} (${d.previous.status})`)
    }
    say(`  click latency, round presses behind the others' slots (no target): p50 ${behindP.p50} ms, p99 ${behindP.p99} ms, max ${behindP.max} ms (n=${behindP.n}, lost ${slow.behind.lost})`)
    say(`  flushes the slow device saw (ext4 on a loop device over the FUSE disk: an fdatasync sends two, each sleeping ${fsyncDelayMs / 2} ms): ${fsyncP.n}, p50 ${fsyncP.p50} ms, max ${fsyncP.max} ms`)
    say(`  event-loop stalls over 20 ms: daemon ${listed(slow.stalls, slow.startedAt)}`)
    say(`  daemon RSS at the end: ${slow.rssMb.toFixed(1)} MB; start-up on the slow disk (fsync delay 0) ${slow.startupMs} ms`)
    const slowWarnings = slow.warnings
    say(`  daemon warnings: ${slowWarnings.length === 0 ? "none" : slowWarnings.length}`)
    for (const line of slowWarnings.slice(0, 5)) say(`    +${((line.time - slow.startedAt) / 1000).toFixed(1)} s: ${line.msg}`)
    if (slowWarnings.length > 5) say(`    … and ${slowWarnings.length - 5} more`)

    heading(`summary against the targets of issues #7 and #14${slowDiskOnly ? " (--slow-disk-only: what was measured)" : ""}`)
    checks.push(
      ["http 429 = 0", http429 === 0, String(http429)],
      ["start-up ≤ 1500 ms", startupMs <= 1500, `${startupMs} ms`],
      ["slow disk: stamp error p99 ≤ 5 ms", stampP.p99 <= 5, `${stampP.p99} ms`],
      ["slow disk: other-place delay p99 ≤ 50 ms", otherP.p99 <= 50, `${otherP.p99} ms`]
    )
    for (const [target, met, figure] of checks) say(`  ${met ? "met   " : "MISSED"} ${target.padEnd(40)} ${figure}`)
    say(`  daemon warnings/errors logged: ${warnings}, on the slow disk ${slowWarnings.length}; bench took ${Math.round((Date.now() - startedAt) / 1000)} s`)

    say(JSON.stringify({
      ...figures,
      http_429_count: http429,
      stamp_error_ms_slow_disk: { p50: stampP.p50, p99: stampP.p99, max: stampP.max, n: stampP.n },
      click_latency_ms_slow_disk: { p50: clickSlowP.p50, p99: clickSlowP.p99, max: clickSlowP.max, n: clickSlowP.n, lost: slow.idle.lost },
      click_latency_ms_slow_disk_behind_others: { p50: behindP.p50, p99: behindP.p99, n: behindP.n },
      other_place_delay_ms_slow_disk: { p50: otherP.p50, p99: otherP.p99, max: otherP.max, n: otherP.n },
      slow_disk_fsync_ms: { p50: fsyncP.p50, max: fsyncP.max, n: fsyncP.n, delay_ms: fsyncDelayMs, what: "flushes of the loop device under ext4; an fdatasync sends two of delay_ms / 2 each" },
      startup_ms: startupMs,
      startup_definition: readyDefinition,
      places: placeCount,
      requests_per_second: requestsPerSecond,
      ...(slowDiskOnly ? {} : { soak_minutes: soakMinutes }),
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
