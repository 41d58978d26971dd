import { protocols } from "../adapters/registry.ts"
import type { RecordedRequest } from "../simulator/control-client.ts"
import type { Daemon } from "./daemon-process.ts"
import { accepted, allRequests, matchClicks, matchScores, type Press, pendingScores, type ScoreWrite } from "./deliveries.ts"
import { type Stalls, stallsLine, tail, type Watch } from "./explain.ts"
import { type Heading, type LatencyFigure, say, sayLatency } from "./report.ts"
import { sleep } from "./stats.ts"
import { pressButton, requestsPerSecond, type Venue, writeScoreChange } from "./venue.ts"

/** A press this often while the backlog drains; each costs a slot the scores do not get. */
const pressEveryMs = 4_000
/** Presses count as "saturated" only while every place still has at least this many entries waiting. */
const minimumBacklog = 2

export interface SaturatedResult {
  readonly presses: ReadonlyArray<Press>
  readonly backlog: ReadonlyArray<ScoreWrite>
  /** Every request the simulator saw from the first backlog write to the drain's end. */
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly drained: boolean
  readonly startedAt: number
}

/**
 * Writes `perPlace` score changes to every pty (a burst, like a console catching up after the
 * network was down) so each place's lane holds dozens of entries, then presses buttons while
 * the outbox drains at the token's 1 request/s.
 */
export const runSaturated = async (
  venue: Venue,
  { perPlace, onProgress }: { readonly perPlace: number; readonly onProgress: (text: string) => void }
): Promise<SaturatedResult> => {
  const startedAt = Date.now()
  const backlog: Array<ScoreWrite> = []
  // A console that sends partial updates has its changes settled (80 ms at 19200 baud): its
  // changes must come further apart than that to be changes of their own, as a real board's are.
  const roundMs = venue.places.some((p) => protocols[p.console.protocol]!.updates === "partial") ? 120 : 0
  for (let k = 0; k < perPlace; k++) {
    const roundStart = Date.now()
    for (const place of venue.places) {
      backlog.push({ place, ...writeScoreChange(place) })
      // Distinct frames, not one chunk: each change is its own reading and entry.
      await sleep(2)
    }
    await sleep(roundMs - (Date.now() - roundStart))
  }
  onProgress(`  wrote ${backlog.length} score changes (${perPlace} per place) in ${Date.now() - startedAt} ms`)

  const presses: Array<Press> = []
  // The drain takes one slot per entry and per press; allow half as much again before giving up.
  const deadline = Date.now() + (backlog.length * 1_000 + 60_000) * 1.5
  let nextPressAt = Date.now() + 1_500
  let nextReportAt = Date.now() + 30_000
  let placeIndex = 0
  let drained = false
  while (Date.now() < deadline) {
    const pending = pendingScores(venue)
    const total = [...pending.values()].reduce((n, c) => n + c, 0)
    if (total === 0 && Date.now() - startedAt > 2_000) {
      drained = true
      break
    }
    const everyPlaceBacklogged = venue.places.every((p) => (pending.get(p.key) ?? 0) >= minimumBacklog)
    if (Date.now() >= nextPressAt && everyPlaceBacklogged) {
      nextPressAt += pressEveryMs
      const place = venue.places[placeIndex++ % venue.places.length]!
      presses.push({ place, publishedAt: await pressButton(venue, place) })
    }
    if (Date.now() >= nextReportAt) {
      nextReportAt += 30_000
      onProgress(`  ${Math.round((Date.now() - startedAt) / 1000)} s: ${total} entries still pending, ${presses.length} presses so far`)
    }
    await sleep(250)
  }
  const requests = (await allRequests(venue)).filter((r) => r.at >= startedAt)
  return { presses, backlog, requests, drained, startedAt }
}

export interface DrainRate {
  /** Accepted requests per second from the first to the last backlog entry delivered. */
  readonly perSecond: number
  readonly requests: number
  readonly seconds: number
}

/**
 * The drain: from the first accepted request after the burst to the last backlog entry's
 * delivery, every accepted request (scores and the presses' clicks both spend the budget).
 */
export const drainRate = (result: SaturatedResult): DrainRate => {
  const ok = result.requests.filter(accepted)
  const scorePaths = new Set(result.backlog.flatMap((w) => [`/public/places/${w.place.key}/score`, `/public/events/${w.place.eventKey}/score`]))
  const lastScore = ok.findLast((r) => r.method === "POST" && scorePaths.has(r.path))
  if (ok.length < 2 || lastScore === undefined) return { perSecond: Number.NaN, requests: ok.length, seconds: 0 }
  const window = ok.filter((r) => r.at <= lastScore.at)
  const seconds = (lastScore.at - window[0]!.at) / 1000
  // n requests span n − 1 intervals.
  return { perSecond: (window.length - 1) / seconds, requests: window.length, seconds }
}

export interface SaturatedFigures {
  readonly click: LatencyFigure
  readonly drain: DrainRate
  readonly drained: boolean
  /** Score changes written in the burst. */
  readonly backlog: number
  /** The daemon's VmHWM once the backlog has drained: the most it took under load. */
  readonly rssPeakMb: number
}

/** A backlog on every place at once: the click latency behind it, and whether the outbox drains at the full rate. */
export const saturatedPhase = async (
  heading: Heading,
  venue: Venue,
  daemon: Daemon,
  watch: Watch,
  perPlace: number
): Promise<SaturatedFigures> => {
  heading(`saturated: ${perPlace} score changes on every place at once, presses while the backlog drains`)
  const startedAt = Date.now()
  const saturated = await runSaturated(venue, { perPlace, onProgress: say })
  const stalls: Stalls = {
    daemon: (await daemon.heapSample()).stalls.filter((stall) => stall.at >= startedAt),
    bench: watch.bench.take(),
    warnings: daemon.logs().filter((line) => line.level >= 40),
    machine: watch.machine
  }
  say(stallsLine(stalls, startedAt))
  const clicks = matchClicks(saturated.requests, saturated.presses)
  const backlogScores = matchScores(saturated.requests, saturated.backlog)
  const drain = drainRate(saturated)
  say(`  drained: ${saturated.drained ? "yes" : "NO (deadline)"}; backlog entries delivered ${backlogScores.latencies.length}/${saturated.backlog.length}`)
  const click = sayLatency("click saturated", clicks, { slowest: true })
  const slow = tail(clicks, saturated.requests, 1050, stalls)
  if (slow.length > 0) say(`  slowest saturated clicks over 1050 ms:\n${slow.join("\n")}`)
  say(`  drain: ${drain.requests} requests in ${drain.seconds.toFixed(1)} s = ${drain.perSecond.toFixed(3)}/s (allowed ${requestsPerSecond}/s)`)
  // Clip follow-ups take only slots nobody else wants: while the backlog drains they should wait.
  const momentReads = saturated.requests.filter((r) => r.method === "GET" && r.path.startsWith("/public/moments/")).length
  say(`  moment reads (clip follow-ups) during the phase: ${momentReads}`)
  return { click, drain, drained: saturated.drained, backlog: saturated.backlog.length, rssPeakMb: daemon.rssMb().peak }
}
