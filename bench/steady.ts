import { protocols } from "../adapters/registry.ts"
import type { Daemon, HeapSample } from "./daemon-process.ts"
import { allRequests, matchClicks, matchScores, type Press, type ScoreWrite, settle } from "./deliveries.ts"
import { type Stalls, stallsLine, tail, type Watch } from "./explain.ts"
import { type Heading, type LatencyFigure, say, sayLatency } from "./report.ts"
import { sleep, slope } from "./stats.ts"
import { pressButton, type Venue, writeScoreChange, writeTick } from "./venue.ts"

/**
 * One action (a score change or a press) per this interval across all places: 1 request/s is
 * the whole token's budget, and a sample must not wait behind the previous one's slot.
 */
const actionEveryMs = 1_200
/** Consoles repeat their state several times a second; every place sends a clock frame this often. */
export const tickEveryMs = 250

/** Clock frames on every place until stopped: the background of every phase, as at a real venue. */
export const startTicking = (venue: Venue): (() => void) => {
  const timer = setInterval(() => {
    for (const place of venue.places) writeTick(place)
  }, tickEveryMs)
  return () => clearInterval(timer)
}

export interface SteadyResult {
  readonly presses: ReadonlyArray<Press>
  readonly writes: ReadonlyArray<ScoreWrite>
  readonly heap: ReadonlyArray<HeapSample>
  readonly rssMb: ReadonlyArray<number>
}

/**
 * Steady state without backlog: round-robin over places, a score change, then (1.2 s later) a
 * press, and so on. Each place posts a score every ~19 s, which keeps its live event known
 * (otherwise the background look-ups, every 30 s per place, would take slots). Heap and RSS
 * are sampled halfway between actions, when nothing of the bench's is in flight, so the
 * forced GC never lands on a measured path.
 */
export const runSteady = async (
  venue: Venue,
  daemon: Daemon,
  { durationMs, heapEveryMs, heapAfterMs, onProgress, everyMs = actionEveryMs, pressEvery = 2 }: {
    readonly durationMs: number
    /** One action this often (default 1.2 s: the steady phase's load, near the token's 1 request/s). */
    readonly everyMs?: number
    /** Every n-th action is a press, the others score changes (default 2: one in two). */
    readonly pressEvery?: number
    readonly heapEveryMs: number
    /** Heap samples start this long into the phase: the first minutes grow caches and JIT code. */
    readonly heapAfterMs: number
    readonly onProgress: (text: string) => void
  }
): Promise<SteadyResult> => {
  const presses: Array<Press> = []
  const writes: Array<ScoreWrite> = []
  const heap: Array<HeapSample> = []
  const rssMb: Array<number> = []
  const start = Date.now()
  let nextHeapAt = start + heapAfterMs
  let nextReportAt = start + 30_000
  const actions = Math.ceil(durationMs / everyMs)
  for (let i = 0; i < actions; i++) {
    // In pairs (a change, then a press on the same place) at the default; else place after place.
    const place = venue.places[(pressEvery === 2 ? Math.floor(i / 2) : i) % venue.places.length]!
    if (i % pressEvery !== pressEvery - 1) writes.push({ place, ...writeScoreChange(place) })
    else presses.push({ place, publishedAt: await pressButton(venue, place) })
    await sleep(everyMs / 2)
    const now = Date.now()
    if (now >= nextHeapAt) {
      nextHeapAt += heapEveryMs
      heap.push(await daemon.heapSample())
      rssMb.push(daemon.rssMb().rss)
    }
    if (now >= nextReportAt) {
      nextReportAt += 30_000
      const last = heap.at(-1)
      onProgress(`  ${Math.round((now - start) / 1000)} s: ${writes.length} score changes, ${presses.length} presses` +
        (last === undefined ? "" : `, daemon heap ${(last.heapUsed / 2 ** 20).toFixed(2)} MB after GC, RSS ${daemon.rssMb().rss.toFixed(1)} MB`))
    }
    await sleep(Math.max(0, start + (i + 1) * everyMs - Date.now()))
  }
  return { presses, writes, heap, rssMb }
}

export interface SteadyFigures {
  readonly clickIdle: LatencyFigure
  /** The full-state consoles' changes: the daemon's own delay. */
  readonly scoreIdle: LatencyFigure
  /** The partial-update consoles' changes, held for their settle window by design. */
  readonly scoreSettled: LatencyFigure
  /** Median of the steady samples. */
  readonly rssMb: number
  /** Of one core, over the phase. */
  readonly cpuPercent: number
  readonly heapGrowthMbPerHour: number
  readonly heapSamples: number
  readonly heapSpanMin: number
  readonly heapUsedLastMb: number | undefined
}

const mb = (bytes: number) => bytes / 2 ** 20

/** The idle latencies, with the slow samples explained, and the daemon's memory and CPU under a venue's ordinary load. */
export const steadyPhase = async (
  heading: Heading,
  venue: Venue,
  daemon: Daemon,
  watch: Watch,
  soakMinutes: number
): Promise<SteadyFigures> => {
  heading(`steady state for ${soakMinutes} min: one score change or press every 1.2 s, clock frames every 250 ms on every place`)
  const cpuBefore = daemon.cpuSeconds()
  const startedAt = Date.now()
  const steady = await runSteady(venue, daemon, {
    durationMs: soakMinutes * 60_000,
    heapEveryMs: soakMinutes > 10 ? 60_000 : 10_000,
    heapAfterMs: Math.min(30_000, soakMinutes * 60_000 * 0.2),
    onProgress: say
  })
  const cpu = (daemon.cpuSeconds() - cpuBefore) / ((Date.now() - startedAt) / 1000)
  await settle(venue, 1_500, 30_000)
  const requests = await allRequests(venue)
  const stalls: Stalls = {
    daemon: [...steady.heap, await daemon.heapSample()].flatMap((sample) => sample.stalls).filter((stall) => stall.at >= startedAt),
    bench: watch.bench.take(),
    warnings: daemon.logs().filter((line) => line.level >= 40),
    machine: watch.machine
  }
  say(stallsLine(stalls, startedAt, " (the heap samples' forced GCs included)"))
  // A partial-update console's change is held for its settle window (80 ms for RTD) by design:
  // its latency is reported apart, so the idle target keeps measuring the daemon's own delay.
  const settled = (write: ScoreWrite) => protocols[write.place.console.protocol]!.updates === "partial"
  const clicks = matchClicks(requests, steady.presses)
  const scores = matchScores(requests, steady.writes.filter((w) => !settled(w)))
  // Clip follow-ups read each click's moment (once when its clip is there on time): the reads a
  // press may find just ahead of it in the token's slots.
  const reads = requests.filter((r) => r.at >= startedAt && r.method === "GET" && r.path.startsWith("/public/moments/"))
  say(`  moment reads (clip follow-ups) in the phase: ${reads.length}, for ${steady.presses.length} presses; ${new Set(reads.map((r) => r.path)).size} moments read`)
  const clickIdle = sayLatency("click idle", clicks, { slowest: true })
  const scoreIdle = sayLatency("score idle", scores, { slowest: true })
  const scoreSettled = sayLatency("score idle, settled (RTD, held 80 ms)", matchScores(requests, steady.writes.filter(settled)))
  for (const [what, matched, overMs] of [["click", clicks, 20], ["score", scores, 25]] as const) {
    const slow = tail(matched, requests, overMs, stalls)
    if (slow.length > 0) say(`  slowest idle ${what}s over ${overMs} ms:\n${slow.join("\n")}`)
  }
  const heapPoints = steady.heap.map((s) => ({ x: (s.at - steady.heap[0]!.at) / 3_600_000, y: mb(s.heapUsed) }))
  const heapGrowth = slope(heapPoints)
  const rssSorted = [...steady.rssMb].sort((a, b) => a - b)
  const rssMb = rssSorted[Math.floor(rssSorted.length / 2)] ?? daemon.rssMb().rss
  const heapSpanMin = heapPoints.length < 2 ? 0 : heapPoints.at(-1)!.x * 60
  say(`  daemon heap after GC: ${heapPoints.map((p) => p.y.toFixed(2)).join(" ")} MB → ${heapGrowth.toFixed(2)} MB/h over ${heapSpanMin.toFixed(1)} min`)
  say(`  daemon RSS (median of steady samples): ${rssMb.toFixed(1)} MB`)
  say(`  daemon CPU: ${(cpu * 100).toFixed(1)} % of one core (8 consoles ticking 4×/s, an action every 1.2 s, heap samples)`)
  return {
    clickIdle,
    scoreIdle,
    scoreSettled,
    rssMb,
    cpuPercent: cpu * 100,
    heapGrowthMbPerHour: heapGrowth,
    heapSamples: heapPoints.length,
    heapSpanMin,
    heapUsedLastMb: heapPoints.at(-1)?.y
  }
}
