import { randomBytes } from "node:crypto"
import { createSocket, type Socket } from "node:dgram"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { expect } from "vitest"
import { type RecordedRequest, SimulatorControl, type SimulatorState } from "../../simulator/control-client.ts"
import { type RunningSimulator, startSimulator } from "../../simulator/index.ts"
import { type BacklogOutbox, writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { daemonConfig, type PlaceConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type FaultDaemon, faultDaemon } from "../../scripts/support/fault-daemon.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { outboxStates } from "./outbox-file.ts"
import type { Resources } from "./resources.ts"
import { sleep } from "./sleep.ts"

/**
 * Issue 34's process-level scenario, "after a weekend offline": the daemon as a real process
 * starts, with the service down, on an outbox holding thousands of past events' score entries
 * (written by scripts/support/backlog-outbox.ts, not by waiting); each place's console (JSON
 * over UDP) then shows its live match's score changes; the service comes back. Measured from
 * the simulator's request log and state: when each place's latest live entry was accepted, how
 * many past entries the service accepted before that, and, once the outbox is drained, whether
 * every entry reached its own event exactly once with its original stamp.
 */
export interface LiveFirstSize {
  readonly places: number
  readonly pastEventsPerPlace: number
  readonly pendingPerPlace: number
  /** The token's rate at the simulator, and the daemon's `service.requestsPerSecond`. */
  readonly requestsPerSecond: number
  /** Score changes each place's console shows while the service is down. */
  readonly liveChanges: number
  /** How long the service stays down after the last change was captured (back-offs grow meanwhile). */
  readonly downAfterLiveMs: number
  /** Bound on waiting for the live scores, then for the drain, after the return. */
  readonly drainTimeoutMs: number
}

/** The target of the issue: every live place current within this long of the service's return. */
export const liveCurrentTargetMs = 15_000

interface Entry {
  readonly timeStamp: number
  readonly left: number
  readonly right: number
  readonly period: number
}

interface LivePlace {
  readonly key: string
  readonly port: number
  readonly liveEventKey: string
  readonly pastEventKeys: ReadonlyArray<string>
}

export interface LiveFirstRun {
  readonly size: LiveFirstSize
  readonly places: ReadonlyArray<LivePlace>
  readonly backlog: BacklogOutbox
  /** The entries the daemon captured from the consoles during the outage, per place, in capture order. */
  readonly live: ReadonlyMap<string, ReadonlyArray<Entry>>
  readonly outageMs: number
  /** Per place: from the service's return until its latest live entry was accepted (NaN: never, within the bound). */
  readonly currentMs: ReadonlyMap<string, number>
  /** From the return until the service accepted its first request. */
  readonly firstAcceptedMs: number
  /** Past-event entries the service accepted before every place's latest live entry had been. */
  readonly pastBeforeAllCurrent: number
  /** Per place: its own past entries accepted before its latest live entry. */
  readonly pastBeforeOwnLive: ReadonlyMap<string, number>
  /** Score POSTs answered 200 until every live place was current, in the order the service took them. */
  readonly early: ReadonlyArray<RecordedRequest>
  /** From the return until the outbox held nothing pending (NaN: not within the bound). */
  readonly drainMs: number
  /** The last score POSTs accepted (the simulator keeps 20,000), for the drain's pace per place. */
  readonly drained: ReadonlyArray<RecordedRequest>
  /** Requests after the return the service refused for the token's rate (429), among the last 20,000 it kept. */
  readonly refused: ReadonlyArray<RecordedRequest>
  readonly outboxStates: Readonly<Record<string, number>>
  readonly state: SimulatorState
  readonly daemon: FaultDaemon
}

const entryOf = (value: unknown): Entry => {
  const { timeStamp, left, right, period } = value as Entry
  return { timeStamp, left, right, period }
}

/** The score a console shows at its `change`-th change: the sides score in turn, first quarter. */
const boardAt = (change: number) => ({ home: Math.ceil(change / 2), away: Math.floor(change / 2) })

const startServiceWorld = async (res: Resources, size: LiveFirstSize, token: string) => {
  const placeKeys = Array.from({ length: size.places }, (_, i) => `court-${i + 1}`)
  const sim = await startSimulator({
    port: 0,
    requestsPerSecond: size.requestsPerSecond,
    // A tenth of a second's worth: at 50–100/s a request that arrives a few ms early (loopback and
    // scheduling jitter) would meet a burst of 1 with a 429, and every place pauses a second for it,
    // by design (budget-pacing.ts); at the real 1/s the 2 % grace covers that jitter. The rate over
    // time is the same.
    burst: Math.max(1, Math.round(size.requestsPerSecond / 10)),
    seed: {
      organizations: [{
        key: "backlog-org",
        name: "Weekend offline",
        tokens: [token],
        places: placeKeys.map((key, i) => ({ key, name: `Court ${i + 1}`, sport: "basketball" }))
      }]
    }
  })
  res.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)
  const places: Array<LivePlace> = []
  for (const key of placeKeys) {
    // Past events first (played and closed over the weekend), then the match on now.
    const pastEventKeys: Array<string> = []
    for (let e = 0; e < size.pastEventsPerPlace; e++) {
      pastEventKeys.push((await control.startEvent(key, { homeTeam: "Home", awayTeam: "Away", name: `${key} past ${e + 1}` })).eventKey)
      await control.closeEvent(key)
    }
    const liveEventKey = (await control.startEvent(key, { homeTeam: "Home", awayTeam: "Away", name: `${key} live` })).eventKey
    places.push({ key, port: await freePort(), liveEventKey, pastEventKeys })
  }
  return { sim, control, places }
}

const writeDaemonConfig = async (dir: string, stateDirectory: string, sim: RunningSimulator, size: LiveFirstSize, places: ReadonlyArray<LivePlace>) =>
  writeConfig(join(dir, "scorebridge.yaml"), daemonConfig({
    service: { baseUrl: sim.url, requestsPerSecond: size.requestsPerSecond, timeoutMs: 2_000 },
    stateDirectory,
    status: { listen: `127.0.0.1:${await freePort()}` },
    log: { level: "info" },
    places: places.map((place): PlaceConfig => ({
      key: place.key,
      sport: "basketball",
      scoreboard: {
        protocol: "json",
        udp: { listen: `127.0.0.1:${place.port}`, from: "127.0.0.1" },
        options: { framing: "message", fields: { home: "score.home", away: "score.away", period: "quarter" } }
      }
    }))
  }))

/** Score items the daemon appended after the backlog (id above it), per place, in capture order. */
const liveRows = (stateDirectory: string, afterId: number): Map<string, Array<Entry>> => {
  const db = new DatabaseSync(join(stateDirectory, "outbox.sqlite"), { readOnly: true, timeout: 5_000 })
  try {
    const rows = db.prepare("SELECT place, payload FROM items WHERE kind = 'score' AND id > ? ORDER BY id").all(afterId)
    const live = new Map<string, Array<Entry>>()
    for (const row of rows) {
      const place = String(row["place"])
      live.set(place, [...(live.get(place) ?? []), entryOf(JSON.parse(String(row["payload"])))])
    }
    return live
  } finally {
    db.close()
  }
}

/** Each place's console shows `changes` score changes, 150 ms apart (one datagram each, a full board). */
const playConsoles = async (res: Resources, places: ReadonlyArray<LivePlace>, changes: number) => {
  const socket: Socket = createSocket("udp4")
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve))
  res.defer(() => socket.close())
  const send = (port: number, payload: string) =>
    new Promise<void>((resolve, reject) => socket.send(payload, port, "127.0.0.1", (error) => (error ? reject(error) : resolve())))
  for (let change = 1; change <= changes; change++) {
    const { home, away } = boardAt(change)
    for (const place of places) await send(place.port, JSON.stringify({ quarter: 1, score: { home, away } }))
    await sleep(150)
  }
}

/** Every score POST the service accepted, merged by sequence number across polls (its log keeps the last 20,000). */
const acceptedLog = (control: SimulatorControl) => {
  const seen = new Map<number, RecordedRequest>()
  return {
    poll: async () => {
      for (const request of await control.requests({ method: "POST", status: 200 })) seen.set(request.seq, request)
      return [...seen.values()].sort((a, b) => a.seq - b.seq)
    }
  }
}

const stampOf = (request: RecordedRequest): number | undefined => (request.body as { readonly timeStamp?: number } | null)?.timeStamp

/** When each place's latest live entry was accepted: the score POST carrying its stamp, to the place or to its live event. */
const currentAt = (accepted: ReadonlyArray<RecordedRequest>, places: ReadonlyArray<LivePlace>, live: ReadonlyMap<string, ReadonlyArray<Entry>>) =>
  new Map(places.map((place) => {
    const latest = live.get(place.key)!.at(-1)!.timeStamp
    const paths = [`/public/places/${place.key}/score`, `/public/events/${place.liveEventKey}/score`]
    const hit = accepted.find((r) => paths.includes(r.path) && stampOf(r) === latest)
    return [place.key, hit?.at] as const
  }))

const pastKeyOf = (request: RecordedRequest, pastKeys: ReadonlySet<string>): string | undefined => {
  const match = /^\/public\/events\/([^/]+)\/score$/u.exec(request.path)
  return match !== null && pastKeys.has(match[1]!) ? match[1] : undefined
}

/** Runs the scenario to its end (bounded) and returns what was seen; `expectLiveFirst` judges it. */
export const runLiveFirst = async (res: Resources, name: string, size: LiveFirstSize): Promise<LiveFirstRun> => {
  const dir = tempDir(name, res)
  // Long and random: the config names only the variable.
  const token = `backlog-token-${randomBytes(18).toString("hex")}`
  const { sim, control, places } = await startServiceWorld(res, size, token)
  const stateDirectory = join(dir, "state")
  const now = Date.now()
  // Friday evening to an hour ago; the capture times are the entries' stamps.
  const backlog = writeBacklogOutbox({
    stateDirectory,
    places: places.map((p) => ({ key: p.key, pastEventKeys: p.pastEventKeys })),
    pendingPerPlace: size.pendingPerPlace,
    from: now - 60 * 3_600_000,
    to: now - 3_600_000
  })
  const lastBacklogId = Math.max(...[...backlog.pending.values()].flat().map((p) => p.id))
  const config = await writeDaemonConfig(dir, stateDirectory, sim, size, places)

  // The service is down (every request 503) before the daemon starts, until the return below.
  await control.injectFault({ kind: "status", status: 503, durationMs: 3_600_000 })
  const daemon = faultDaemon(config, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
  res.defer(() => daemon.kill9())
  const downSince = Date.now()
  daemon.start()
  for (const place of places) await daemon.waitForLog(new RegExp(`listening on 127\\.0\\.0\\.1:${place.port} \\(UDP\\)`), { timeoutMs: 20_000 })
  await eventually("the daemon's requests to meet the outage", async () => ((await control.requests({ status: 503 })).length > 0 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 100
  })

  await playConsoles(res, places, size.liveChanges)
  const { home, away } = boardAt(size.liveChanges)
  const live = await eventually("every console's last score captured in the outbox", () => {
    const rows = liveRows(stateDirectory, lastBacklogId)
    return places.every((p) => rows.get(p.key)?.at(-1)?.left === home && rows.get(p.key)?.at(-1)?.right === away) ? rows : undefined
  }, { timeoutMs: 20_000, intervalMs: 100 })
  // The length of the outage is the scenario, not a wait for a condition.
  await sleep(size.downAfterLiveMs)

  const returnedAt = Date.now()
  await control.clearFaults()
  return observeReturn({ size, places, backlog, live, control, daemon, stateDirectory, outageMs: returnedAt - downSince, returnedAt })
}

interface Returned {
  readonly size: LiveFirstSize
  readonly places: ReadonlyArray<LivePlace>
  readonly backlog: BacklogOutbox
  readonly live: ReadonlyMap<string, ReadonlyArray<Entry>>
  readonly control: SimulatorControl
  readonly daemon: FaultDaemon
  readonly stateDirectory: string
  readonly outageMs: number
  readonly returnedAt: number
}

/** After the return: the live places becoming current (polled from the request log), then the drain. */
const observeReturn = async (r: Returned): Promise<LiveFirstRun> => {
  const log = acceptedLog(r.control)
  const deadline = r.returnedAt + r.size.drainTimeoutMs
  let accepted: ReadonlyArray<RecordedRequest> = []
  let current = new Map<string, number | undefined>()
  // Bounded by the drain's deadline: on a daemon that sends the backlog first, the figures are still measured.
  while (Date.now() < deadline) {
    accepted = await log.poll()
    current = currentAt(accepted, r.places, r.live)
    if ([...current.values()].every((at) => at !== undefined)) break
    await sleep(250)
  }
  const allCurrentAt = Math.max(...[...current.values()].map((at) => at ?? Number.POSITIVE_INFINITY))
  const pastKeys = new Set(r.places.flatMap((p) => p.pastEventKeys))
  const early = accepted.filter((q) => q.at <= allCurrentAt && q.path.endsWith("/score"))
  const pastBeforeOwnLive = new Map(r.places.map((p) => {
    const own = new Set(p.pastEventKeys)
    const at = current.get(p.key) ?? Number.POSITIVE_INFINITY
    return [p.key, accepted.filter((q) => q.at <= at && pastKeyOf(q, own) !== undefined).length] as const
  }))

  let drainedAt: number | undefined
  while (Date.now() < deadline) {
    if ((outboxStates(r.stateDirectory)["pending"] ?? 0) === 0) {
      drainedAt = Date.now()
      break
    }
    await sleep(500)
  }
  return {
    size: r.size,
    places: r.places,
    backlog: r.backlog,
    live: r.live,
    outageMs: r.outageMs,
    currentMs: new Map(r.places.map((p) => [p.key, (current.get(p.key) ?? Number.NaN) - r.returnedAt])),
    firstAcceptedMs: (accepted[0]?.at ?? Number.NaN) - r.returnedAt,
    pastBeforeAllCurrent: early.filter((q) => pastKeyOf(q, pastKeys) !== undefined).length,
    pastBeforeOwnLive,
    early,
    drainMs: (drainedAt ?? Number.NaN) - r.returnedAt,
    drained: (await log.poll()).filter((q) => q.at >= r.returnedAt && q.path.endsWith("/score")),
    refused: (await r.control.requests({ status: 429 })).filter((q) => q.at >= r.returnedAt),
    outboxStates: outboxStates(r.stateDirectory),
    state: await r.control.state(),
    daemon: r.daemon
  }
}

const key = (e: Entry) => `${e.timeStamp}:${e.left}-${e.right}/${e.period}`

/** How a score stream differs from the entries expected in it: missing, extra, and those there more than once. */
const streamDiff = (stream: ReadonlyArray<unknown>, expected: ReadonlyArray<Entry>) => {
  const want = new Set(expected.map(key))
  const counts = new Map<string, number>()
  for (const entry of stream) counts.set(key(entryOf(entry)), (counts.get(key(entryOf(entry))) ?? 0) + 1)
  return {
    missing: [...want].filter((k) => !counts.has(k)),
    extra: [...counts.keys()].filter((k) => !want.has(k)),
    twice: [...counts].filter(([, n]) => n > 1).map(([k]) => k)
  }
}

/** The drain's pace: entries a second over the whole drain, and the median gap between one place's accepted past entries. */
const drainPace = (run: LiveFirstRun): string => {
  const delivered = run.backlog.items + [...run.live.values()].reduce((sum, l) => sum + l.length, 0)
  const perSecond = delivered / (run.drainMs / 1000)
  const gaps = run.places.flatMap((p) => {
    const own = new Set(p.pastEventKeys)
    const times = run.drained.filter((q) => own.has(q.path.split("/")[3] ?? "")).map((q) => q.at)
    return times.slice(1).map((at, i) => at - times[i]!)
  }).sort((a, b) => a - b)
  return `${perSecond.toFixed(1)}/s (${(perSecond / run.size.requestsPerSecond).toFixed(2)} of the rate); ` +
    `${run.refused.length} refused (429); gap between one place's past entries p50 ${gaps[Math.floor(gaps.length / 2)] ?? NaN} ms, p90 ${gaps[Math.floor(gaps.length * 0.9)] ?? NaN} ms`
}

/** One line of figures, printed before anything is judged, so a failing run still shows them. */
export const summary = (run: LiveFirstRun): string => {
  const current = [...run.currentMs].map(([p, ms]) => `${p} ${Math.round(ms)}`).join(", ")
  const own = [...run.pastBeforeOwnLive].map(([p, n]) => `${p} ${n}`).join(", ")
  const order = run.early.slice(0, 40).map((q) => `${q.at}:${q.path.replace("/public/", "")}@${stampOf(q)}`).join(" ")
  return `backlog-live-first: ${run.size.places} places × ${run.size.pendingPerPlace} past entries (${run.backlog.items} items, ` +
    `${(run.backlog.bytes / 1e6).toFixed(1)} MB) at ${run.size.requestsPerSecond}/s, ${run.size.liveChanges} live changes per place; ` +
    `outage ${run.outageMs} ms; first request accepted ${Math.round(run.firstAcceptedMs)} ms after the return; ` +
    `latest live entry accepted after (ms): ${current}; past entries accepted before every place was current: ${run.pastBeforeAllCurrent} ` +
    `(own, per place: ${own}); drained ${Math.round(run.drainMs)} ms after the return, ${drainPace(run)}; outbox ${JSON.stringify(run.outboxStates)}\n` +
    `  first accepted score POSTs (at:path@timeStamp): ${order}\n`
}

/** The rules, judged on a run: (a) live current in time, (b) not behind the backlog, (c) past to their own events, (d) once. */
export const expectLiveFirst = (run: LiveFirstRun): void => {
  process.stderr.write(summary(run))
  // (a) Each place's latest live entry accepted within the target of the service's return.
  const late = [...run.currentMs].filter(([, ms]) => !(ms <= liveCurrentTargetMs))
  expect(late, `places whose latest live entry was not accepted within ${liveCurrentTargetMs} ms of the return`).toEqual([])
  // (b) Live first, past in the slots left. At the return each place may have a past entry already
  // under way (taken while the outage hid the live event, or sent in a slot no live entry wanted
  // yet), and the first success ends every back-off, so the live heads take the next slots: a
  // couple of past entries per place at most. Sent behind the backlog it would be all of them.
  expect(run.pastBeforeAllCurrent, "past-event entries accepted before every live place was current").toBeLessThanOrEqual(2 * run.size.places)
  expectDeliveredOnce(run)
}

/** (c) and (d): every entry in its own event once, with its stamp; the outbox drained, the daemon never crashed. */
const expectDeliveredOnce = (run: LiveFirstRun): void => {
  expect(run.drainMs, "the outbox drained within the bound").toBeLessThanOrEqual(run.size.drainTimeoutMs)
  const captured = run.places.map((p) => run.live.get(p.key)?.length ?? 0)
  expect(captured, "live entries captured per place (one per change shown)").toEqual(run.places.map(() => run.size.liveChanges))
  const liveCount = captured.reduce((sum, n) => sum + n, 0)
  expect(run.outboxStates, "every outbox item delivered").toEqual({ delivered: run.backlog.items + liveCount })
  const events = new Map(run.state.events.map((e) => [e.key, e]))
  const wrong: Array<string> = []
  const judge = (eventKey: string, expected: ReadonlyArray<Entry>, what: string) => {
    const diff = streamDiff(events.get(eventKey)?.scoreStream ?? [], expected)
    if (diff.missing.length + diff.extra.length + diff.twice.length > 0) {
      wrong.push(`${what} ${eventKey}: ${diff.missing.length} missing (${diff.missing.slice(0, 3).join(" ")}), ` +
        `${diff.extra.length} not its own (${diff.extra.slice(0, 3).join(" ")}), ${diff.twice.length} twice (${diff.twice.slice(0, 3).join(" ")})`)
    }
  }
  for (const place of run.places) {
    const pending = run.backlog.pending.get(place.key)!
    for (const eventKey of place.pastEventKeys) judge(eventKey, pending.filter((p) => p.eventKey === eventKey).map((p) => p.entry), `${place.key} past event`)
    judge(place.liveEventKey, run.live.get(place.key)!, `${place.key} live event`)
  }
  expect(wrong, "score streams that differ from the entries captured for them (each once, its own event, its original stamp)").toEqual([])
  expect(run.daemon.crashes(), run.daemon.tail()).toBe(0)
  expect(run.daemon.logs().filter((l) => l.level >= 60), "fatal log lines").toEqual([])
}
