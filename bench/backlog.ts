/**
 * The `backlog` phase (issue 34): a venue back after a weekend offline. Eight places, each with
 * three past events and a live one; the outbox holds 5,000 pending score entries of the past
 * events per place (40,000 items, written by scripts/support/backlog-outbox.ts as the daemon would
 * have). The daemon starts on that outbox while the service is still down (every /public/
 * request reset); score changes and presses go on at a venue's pace (below); then the service comes
 * back and the phase runs on for a bounded time, the status page and one timeline fetched every
 * second. Measured: start-up with that outbox, how soon each live place is current after the
 * return, the daemon's event-loop delay, stamps, clicks, the status server's answers, the drain,
 * RSS.
 *
 * Self-contained: its own simulator, mosquitto, ptys and daemon (in `dir/backlog`), stopped when
 * the phase ends. About 2.5 minutes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { writeBacklogOutbox } from "../scripts/support/backlog-outbox.ts"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { acceptedKinds, type Drain, drainOf, kindsText, liveCurrent, type Stamps, stampsFromOutbox } from "./backlog-figures.ts"
import { type LoopDelay, loopDelayControl, loopDelayGauge, loopDelayProbe, loopResolutionMs, machineBusy, type StatusFetch, watchStatus } from "./backlog-watch.ts"
import { type Cleanup, makeCleanup } from "./cleanup.ts"
import { type Daemon, type LogLine, startDaemon } from "./daemon-process.ts"
import { allRequests, matchClicks, type Press, type ScoreWrite } from "./deliveries.ts"
import { listed } from "./explain.ts"
import { type Heading, type LatencyFigure, say, say429s, sayLatency, sayPercentiles } from "./report.ts"
import type { Stall } from "./stalls.mjs"
import { type Percentiles, percentiles, round1, sleep } from "./stats.ts"
import { waitUntilReady } from "./startup.ts"
import { runSteady, startTicking } from "./steady.ts"
import { type Place, startVenue, token, type Venue, writeScoreChange } from "./venue.ts"

const placeCount = 8
const pastEvents = 3
export const backlogPerPlace = 5_000
/**
 * The daemon runs this long on the backlog with the service down, the venue going on. The return
 * falls between two of the venue's actions (they start 5 s after readiness, every 3 s), 1.5 s from
 * each. At 20 s one was written within milliseconds of the return, the court's latest state by a
 * hair or not at all: one run's court took 19.7 s where the others' took at most 13.6 s.
 */
const outageMs = 21_500
/**
 * A venue's pace while the backlog drains: an action every 3 s, one in three a press (8 courts:
 * each scores about every 36 s and presses about every 72 s). The steady phase's pace (one every
 * 1.2 s, half of them presses) nearly fills the token's 1 request/s by itself; clicks go first, so
 * under it no court's live score could be current within the 15 s the issue asks, whatever the order.
 */
const venueActionEveryMs = 3_000
const venuePressEvery = 3
/** Then this long with the service back: the live places must be current early in it, the drain is measured over it. */
const afterReturnMs = 75_000
/** Clock frames only, this long after start-up, before the first score change. */
const boardsOnMs = 2_000
/** Score changes on every place right after start-up: each live event has a few entries before the return. */
const firstChanges = 3
/** A press stamped this long after its publish still counts as its click: an old daemon's loop stalls for a second or more. */
const clickWindowMs = 10_000
/**
 * The outage, until the phase clears it: every /public/ request answered 503, a definite "not
 * taken", as a dead uplink's connect errors are. SCOREBRIDGE_BENCH_BACKLOG_OUTAGE=reset resets each
 * instead: an outcome unknown, so each place's entry tried in the outage is in doubt at the
 * return and goes again first (one more slot per place before its latest state).
 */
const outageFault = process.env["SCOREBRIDGE_BENCH_BACKLOG_OUTAGE"] === "reset"
  ? { kind: "reset", pathPrefix: "/public/", durationMs: 10 * 60_000 } as const
  : { kind: "status", status: 503, pathPrefix: "/public/", durationMs: 10 * 60_000 } as const

export interface BacklogFigures {
  readonly items: number
  readonly outboxMb: number
  readonly startupMs: number
  readonly liveCurrent: Percentiles & { readonly notCurrent: number }
  /** Over the window after the return; undefined if the probe never answered. */
  readonly loopDelay: LoopDelay | undefined
  readonly stampError: Percentiles & { readonly missing: number }
  readonly click: LatencyFigure
  /** status.json: the data the open page reads. */
  readonly status: Percentiles
  readonly page: Percentiles
  readonly timeline: Percentiles
  readonly drain: Drain
  readonly rssMb: number
  readonly rssPeakMb: number
  /** From the return until the first press made with no earlier click still waiting. */
  readonly clicksQueuedMs: number
  readonly http429: number
  readonly warnings: number
  /** After the return: the whole machine's busy share (other work skews the tails) and the daemon's CPU. */
  readonly machineBusyPercent: number
  readonly daemonCpuPercent: number
}

interface Run {
  readonly places: ReadonlyArray<Place>
  readonly items: number
  readonly bytes: number
  readonly firstDaemonId: number
  readonly startupMs: number
  readonly readyAt: number
  readonly returnedAt: number
  readonly endedAt: number
  readonly writes: ReadonlyArray<ScoreWrite>
  readonly presses: ReadonlyArray<Press>
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly fetches: ReadonlyArray<StatusFetch>
  readonly rss: ReadonlyArray<number>
  readonly rssPeakMb: number
  readonly loopOutage: LoopDelay | undefined
  readonly loop: LoopDelay | undefined
  readonly gauge: string | undefined
  readonly stalls: ReadonlyArray<Stall>
  readonly warnings: ReadonlyArray<LogLine>
  readonly stamps: Stamps
  /** After the return: the whole machine's busy share (of all CPUs) and the daemon's (of one core). */
  readonly machineBusyPercent: number
  readonly daemonCpuPercent: number
}

/** The venue with its past events, the service down, the outbox written: what the daemon starts on. */
const prepare = async (cleanup: Cleanup, dir: string) => {
  mkdirSync(dir, { recursive: true })
  const venue = await startVenue(cleanup, dir, placeCount, { pastEvents })
  await venue.control.injectFault(outageFault)
  const now = Date.now()
  const written = writeBacklogOutbox({
    stateDirectory: venue.stateDirectory,
    places: venue.places.map((p) => ({ key: p.key, pastEventKeys: p.pastEventKeys })),
    pendingPerPlace: backlogPerPlace,
    // Friday 18:00 to Monday morning, the last entry an hour before the daemon starts again.
    from: now - 62 * 3_600_000,
    to: now - 3_600_000
  })
  const lastId = Math.max(...[...written.pending.values()].map((lane) => lane.at(-1)!.id))
  return { venue, written, lastId }
}

/**
 * A few changes on every place at once, a second apart per round, as a board's changes come: a
 * partial-update console's changes closer together than its settle window (80 ms for RTD) become
 * one entry, and so do changes read together after a held loop (a daemon held 300 ms at its start
 * merged changes 120 ms apart into one, stamped at the first).
 */
const firstScores = async (venue: Venue): Promise<Array<ScoreWrite>> => {
  const writes: Array<ScoreWrite> = []
  const roundMs = 1_000
  for (let k = 0; k < firstChanges; k++) {
    const roundStart = Date.now()
    for (const place of venue.places) {
      writes.push({ place, ...writeScoreChange(place) })
      await sleep(2)
    }
    await sleep(roundMs - (Date.now() - roundStart))
  }
  return writes
}

/** The outage's end: the probe's figure so far, then a fresh window; the fault cleared last. */
const serviceReturns = async (venue: Venue, daemon: Daemon, loop: ReturnType<typeof loopDelayControl>, at: number) => {
  await sleep(at - Date.now())
  const loopOutage = loop.report()
  loop.reset()
  const returnedAt = Date.now()
  const machine = machineBusy()
  const cpuAtReturn = daemon.cpuSeconds()
  await venue.control.clearFaults()
  say(`  the service answers again (${Math.round((returnedAt - at + outageMs) / 1000)} s after the daemon was ready)`)
  return { returnedAt, machine, cpuAtReturn, loopOutage: await loopOutage }
}

/**
 * SCOREBRIDGE_BENCH_BACKLOG_REQUESTS=FILE: every /public/ request of the phase, one line each (ms
 * from the return, method, path, status, the entry's stamp and score): to see what took the
 * slots before a place became current.
 */
const dumpRequests = (requests: ReadonlyArray<RecordedRequest>, returnedAt: number): void => {
  const file = process.env["SCOREBRIDGE_BENCH_BACKLOG_REQUESTS"]
  if (file === undefined || file === "") return
  const line = (r: RecordedRequest) => {
    const body = r.body as { timeStamp?: number; left?: number; right?: number } | null
    const entry = body?.left === undefined ? "" : ` ${body.left}-${body.right} @${body.timeStamp! - returnedAt}`
    return `${r.at - returnedAt} ${r.method} ${r.path} ${r.status ?? "reset"}${entry}`
  }
  writeFileSync(file, `${requests.map(line).join("\n")}\n`)
  say(`  the phase's requests written to ${file}`)
}

const runBacklog = async (cleanup: Cleanup, dir: string): Promise<Run> => {
  const { venue, written, lastId } = await prepare(cleanup, dir)
  const down = outageFault.kind === "reset" ? "reset" : `answered ${outageFault.status}`
  say(`  outbox: ${written.items} pending score entries of ${placeCount * pastEvents} past events (${backlogPerPlace} per place), ${(written.bytes / 2 ** 20).toFixed(1)} MB; the service down (every /public/ request ${down})`)
  const loop = loopDelayControl(dir)
  const daemon = startDaemon(venue.configPath, { SCOREBRIDGE_TOKEN: token, ...loop.env }, join(dir, "heap.ndjson"), [loopDelayProbe])
  cleanup.defer(() => daemon.stop())
  const startupMs = await waitUntilReady(daemon, placeCount)
  const readyAt = Date.now()
  say(`  start-up on that outbox ${startupMs} ms (spawn → serial ports and MQTT up)`)
  const stopTicking = startTicking(venue)
  cleanup.defer(stopTicking)
  const watching = watchStatus(venue.statusUrl, venue.places[0]!.key, daemon)
  // The boards were on all along: each shows its whole state once (an RTD console's dump; its clock
  // frames carry only the clock), and the daemon has read it before the first change, as at a venue.
  for (const place of venue.places) place.write(place.console.change(place.board))
  await sleep(boardsOnMs)
  const first = await firstScores(venue)
  const [drive, back] = await Promise.all([
    runSteady(venue, daemon, {
      durationMs: readyAt + outageMs + afterReturnMs - Date.now(), heapEveryMs: 60_000, heapAfterMs: Number.POSITIVE_INFINITY, onProgress: say,
      everyMs: venueActionEveryMs, pressEvery: venuePressEvery
    }),
    serviceReturns(venue, daemon, loop, readyAt + outageMs)
  ])
  const endedAt = Date.now()
  const machineBusyPercent = back.machine.busyPercent()
  const daemonCpuPercent = (100 * (daemon.cpuSeconds() - back.cpuAtReturn)) / ((endedAt - back.returnedAt) / 1000)
  const loopAfter = await loop.report()
  await watching.stop()
  const gauge = await loopDelayGauge(venue.statusUrl)
  const rssPeakMb = daemon.rssMb().peak
  const stalls = (await daemon.heapSample()).stalls.filter((s) => s.at < endedAt)
  const requests = await allRequests(venue)
  dumpRequests(requests, back.returnedAt)
  const warnings = daemon.logs().filter((line) => line.level >= 40)
  stopTicking()
  await daemon.stop()
  const writes = [...first, ...drive.writes]
  return {
    places: venue.places, items: written.items, bytes: written.bytes, firstDaemonId: lastId + 1, startupMs, readyAt, returnedAt: back.returnedAt, endedAt,
    writes, presses: drive.presses, requests, fetches: watching.fetches,
    rss: watching.rss.filter((s) => s.at >= back.returnedAt).map((s) => s.mb), rssPeakMb,
    loopOutage: back.loopOutage, loop: loopAfter, gauge, stalls, warnings,
    stamps: stampsFromOutbox(venue.stateDirectory, lastId, writes, drive.presses),
    machineBusyPercent, daemonCpuPercent
  }
}

/**
 * The presses after the return from the first one made with no earlier click still waiting: what a
 * press waits behind the scores (at most the slot of one already on its way), not behind other
 * clicks (those held through the outage, and the presses made while they went, leave one a slot,
 * each after its place's live event was looked up). `queuedMs`: from the return to that press.
 */
const clicksAfterReturn = (run: Run) => {
  const acceptedAt = run.presses.map((press) => {
    const seq = matchClicks(run.requests, [press], clickWindowMs).seqs[0]
    return seq === undefined ? Number.POSITIVE_INFINITY : run.requests.find((r) => r.seq === seq)!.at
  })
  const first = run.presses.findIndex((press, k) =>
    press.publishedAt >= run.returnedAt && acceptedAt.slice(0, k).every((at) => at <= press.publishedAt))
  const after = first === -1 ? [] : run.presses.slice(first)
  const heldLost = acceptedAt.filter((at, k) => at === Number.POSITIVE_INFINITY && run.presses[k]!.publishedAt < run.returnedAt).length
  return { clicks: matchClicks(run.requests, after, clickWindowMs), heldLost, queuedMs: first === -1 ? Number.NaN : run.presses[first]!.publishedAt - run.returnedAt }
}

const sayLive = (run: Run) => {
  const windowMs = run.endedAt - run.returnedAt
  const live = liveCurrent(run.requests, run.places, run.writes, run.returnedAt, run.endedAt)
  const notCurrent = live.filter((l) => !l.current)
  const p = sayPercentiles("live current (service's return → the place's latest live score accepted), over the places", live.map((l) => l.ms),
    { counted: notCurrent.length === 0 ? "" : `; ${notCurrent.length} not current within the ${Math.round(windowMs / 1000)} s after the return, counted as that long` })
  say(`    per place: ${live.map((l) => `${l.place} ${l.current ? `${(l.ms / 1000).toFixed(1)} s` : "never"}`).join(", ")}`)
  const lastAt = run.returnedAt + Math.max(...live.map((l) => l.ms))
  say(`    the accepted requests until the last place was current: ${kindsText(acceptedKinds(run.requests, run.places, run.returnedAt, lastAt))}`)
  return { ...p, notCurrent: notCurrent.length }
}

const sayLoop = (run: Run): void => {
  const text = (l: LoopDelay | undefined) => (l === undefined ? "no answer from the probe" : `p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (n=${l.count})`)
  say(`  daemon event-loop delay (monitorEventLoopDelay in the daemon, beyond its ${loopResolutionMs} ms resolution), after the return: ${text(run.loop)}`)
  say(`    from spawn to the return (start-up included): ${text(run.loopOutage)}`)
  say(`    the daemon's own gauge on /metrics at the end: ${run.gauge ?? "none (this daemon has no scorebridge_event_loop_delay_seconds)"}`)
  const before = run.stalls.filter((s) => s.at < run.returnedAt)
  say(`    stalls over 20 ms (heap probe's 50 ms timer) after the return: ${listed(run.stalls.filter((s) => s.at >= run.returnedAt), run.returnedAt)}`)
  say(`    and from spawn to the return, times from the daemon's readiness: ${listed(before, run.readyAt)}`)
}

const sayStatus = (fetches: ReadonlyArray<StatusFetch>, returnedAt: number) => {
  const of = (what: StatusFetch["what"]) => fetches.filter((f) => f.what === what)
  const failed = fetches.filter((f) => f.status !== 200)
  const p = (what: StatusFetch["what"], label: string) => sayPercentiles(label, of(what).map((f) => f.ms))
  const figures = { status: p("status.json", "status.json answer"), page: p("page", "status page (/) answer"), timeline: p("timeline", "court-1 timeline.svg answer") }
  const slowest = [...fetches].sort((a, b) => b.ms - a.ms).slice(0, 5).map((f) => `${f.what} ${f.ms} ms at ${((f.at - returnedAt) / 1000).toFixed(1)} s`)
  say(`    slowest, times from the return: ${slowest.join(", ")}`)
  if (failed.length > 0) say(`    status server answers not 200: ${failed.length} (${[...new Set(failed.map((f) => `${f.what} ${f.status ?? "no answer"}`))].join(", ")})`)
  return figures
}

const report = (run: Run): BacklogFigures => {
  const live = sayLive(run)
  sayLoop(run)
  const stampError = { ...sayPercentiles("stamp error (daemon stamp − write/publish, every change and press of the phase, from the outbox)", run.stamps.errors, { counted: `, missing ${run.stamps.missing}` }), missing: run.stamps.missing }
  for (const s of run.stamps.worst.filter((s) => s.ms > 5)) say(`    ${s.ms} ms: ${s.what}, +${((s.at - run.readyAt) / 1000).toFixed(1)} s after ready`)
  for (const s of run.stamps.missed) say(`    no item in the outbox: ${s.what}, +${((s.at - run.readyAt) / 1000).toFixed(1)} s after ready`)
  const { clicks, heldLost, queuedMs } = clicksAfterReturn(run)
  say(`  clicks queued behind clicks (those held through the outage, then the presses made meanwhile) until ${(queuedMs / 1000).toFixed(1)} s after the return${heldLost > 0 ? `; ${heldLost} pressed in the outage never arrived` : ""}`)
  const click = sayLatency("click latency, presses from then on", clicks, { slowest: true })
  const status = sayStatus(run.fetches, run.returnedAt)
  const drain = drainOf(run.requests, run.returnedAt, run.endedAt)
  const kinds = kindsText(acceptedKinds(run.requests, run.places, run.returnedAt))
  say(`  drain: first accepted request ${(drain.firstAcceptedMs / 1000).toFixed(1)} s after the return; ${drain.requests} accepted in ${drain.seconds.toFixed(1)} s = ${(drain.ratio).toFixed(3)} of the rate's allowance (${kinds})`)
  const http429 = say429s(run.requests.filter((r) => r.at >= run.returnedAt))
  const rssSorted = [...run.rss].sort((a, b) => a - b)
  const rssMb = rssSorted.at(-1) ?? Number.NaN
  say(`  daemon RSS after the return: median ${rssSorted[Math.floor(rssSorted.length / 2)]?.toFixed(1)} MB, most ${rssMb.toFixed(1)} MB; VmHWM ${run.rssPeakMb.toFixed(1)} MB`)
  say(`  after the return the machine was ${run.machineBusyPercent.toFixed(0)} % busy (of all its CPUs; the daemon, the bench and whatever else runs), the daemon used ${run.daemonCpuPercent.toFixed(1)} % of one core; load average now ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`)
  say(`  daemon warnings/errors logged: ${run.warnings.length}${run.warnings.length === 0 ? "" : `, e.g. "${run.warnings[0]!.msg}"`}`)
  return {
    items: run.items, outboxMb: run.bytes / 2 ** 20, startupMs: run.startupMs, liveCurrent: live, loopDelay: run.loop, stampError, click,
    ...status, drain, rssMb, rssPeakMb: run.rssPeakMb, clicksQueuedMs: queuedMs, http429, warnings: run.warnings.length,
    machineBusyPercent: run.machineBusyPercent, daemonCpuPercent: run.daemonCpuPercent
  }
}

/** The phase: prepared, run, reported; everything it started stopped when it ends. */
export const backlogPhase = async (heading: Heading, cleanup: Cleanup, dir: string): Promise<BacklogFigures> => {
  heading(`backlog: ${placeCount} places, ${backlogPerPlace} pending entries of past events each, the daemon started with the service down; it comes back after ${outageMs / 1000} s, ${afterReturnMs / 1000} s more of presses and score changes, the status page and a timeline fetched every second`)
  const own = makeCleanup()
  cleanup.defer(own.releaseAll)
  try {
    return report(await runBacklog(own, join(dir, "backlog")))
  } finally {
    await own.releaseAll()
  }
}

export const backlogJson = (b: BacklogFigures) => ({
  backlog_items: b.items,
  backlog_outbox_mb: round1(b.outboxMb),
  backlog_startup_ms: b.startupMs,
  backlog_live_current_ms: { p50: b.liveCurrent.p50, p99: b.liveCurrent.p99, max: b.liveCurrent.max, n: b.liveCurrent.n, not_current: b.liveCurrent.notCurrent },
  backlog_loop_delay_ms: b.loopDelay === undefined ? null : { p50: b.loopDelay.p50, p99: b.loopDelay.p99, max: b.loopDelay.max, n: b.loopDelay.count },
  backlog_stamp_error_ms: { p50: b.stampError.p50, p99: b.stampError.p99, max: b.stampError.max, n: b.stampError.n, missing: b.stampError.missing },
  backlog_click_latency_ms: { p50: b.click.p50, p99: b.click.p99, max: b.click.max, n: b.click.n, lost: b.click.lost },
  backlog_status_ms: { p50: b.status.p50, p99: b.status.p99, max: b.status.max, n: b.status.n, what: "GET /status.json, what the open page reads every few seconds" },
  backlog_status_page_ms: { p50: b.page.p50, p99: b.page.p99, max: b.page.max, n: b.page.n },
  backlog_timeline_ms: { p50: b.timeline.p50, p99: b.timeline.p99, max: b.timeline.max, n: b.timeline.n },
  backlog_drain_ratio: Math.round(b.drain.ratio * 1000) / 1000,
  backlog_first_accepted_ms: b.drain.firstAcceptedMs,
  backlog_clicks_queued_ms: b.clicksQueuedMs,
  backlog_rss_mb: round1(b.rssMb),
  backlog_rss_peak_mb: round1(b.rssPeakMb),
  backlog_http_429_count: b.http429,
  backlog_machine_busy_percent: Math.round(b.machineBusyPercent),
  backlog_daemon_cpu_percent: round1(b.daemonCpuPercent)
})
