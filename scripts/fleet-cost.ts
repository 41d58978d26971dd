// Prints the figures of docs/fleet.md's sizing: how many series a venue sends the office, and what
// the venue's Prometheus agent costs beside the bridge. Not a test: it measures and prints.
//
// 1. Series: the simulator (with cameras), mosquitto and one daemon (`venue:` set) with four
//    courts, as processes. court-1 and court-3 are busy courts whose cameras record (scores,
//    presses that make clicks, clips ready), court-2 a busy court whose camera is off (its clicks
//    settle as no clip), court-4 has only a scoreboard. Once every follow-up has settled, each
//    sample line of /metrics is one series: counted in all, per `place`, and without one.
// 2. Agent: the shipped deploy/prometheus/agent.yml (30 s scrapes) with the shipped unit's flags
//    scrapes that daemon and remote-writes to an office Prometheus; after a warm-up, VmRSS of the
//    agent and of the daemon every 10 s for 3 minutes, and their CPU seconds over that window.
//
// Run: node scripts/fleet-cost.ts (build the bundle first: node scripts/build.ts). About 5 minutes.
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { SimulatorControl } from "../simulator/control-client.ts"
import { startSimulator } from "../simulator/index.ts"
import { faultDaemon } from "./support/fault-daemon.ts"
import { type Engine, processCost, query, startAgent, startCentral } from "./support/fleet-engines.ts"
import { daemonConfig, jsonCourtOverMqtt, type PlaceConfig, writeConfig } from "./support/daemon-config.ts"
import { eventually } from "./support/eventually.ts"
import { freePort } from "./support/free-port.ts"
import { startMosquitto } from "./support/mosquitto.ts"
import { tempDir } from "./support/temp-dir.ts"

const venue = "cost-venue"
const token = `fleet-cost-token-${process.pid}`
const cameraOn = ["court-1", "court-3"]
const cameraOff = "court-2"
const busy = [...cameraOn, cameraOff]
const scoreboardOnly = "court-4"
const courts = [...busy, scoreboardOnly]
const pressesPerBusyCourt = 3
/** The agent's window: 6 scrapes at the shipped 30 s, sampled every 10 s. */
const windowMs = 180_000
const sampleEveryMs = 10_000
/** Prometheus adds these to every scrape target: they reach the office with the bridge's series. */
const scrapeSeries = ["up", "scrape_duration_seconds", "scrape_samples_scraped", "scrape_samples_post_metric_relabeling", "scrape_series_added"]

const scoreTopic = (place: string) => `cost/${place}/score`
const remote = (place: string) => `${place}-remote`
const remoteTopic = (place: string) => `zigbee2mqtt/${remote(place)}`

const startedAt = Date.now()
const loadBefore = loadavg()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const fmt = (n: number, digits = 1) => n.toFixed(digits)
const mb = (kb: number) => `${fmt(kb / 1024)} MB`
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

interface Series {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** The sample lines of a Prometheus text exposition: one series each. */
const parseMetrics = (text: string): ReadonlyArray<Series> =>
  text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#")).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/u.exec(line)
    if (match === null) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/gu)) labels[key!] = value!
    return { name: match[1]!, labels, value: Number(match[3]) }
  })

/** A histogram's _bucket, _sum and _count lines under the family's name. */
const family = (name: string) => name.replace(/_(bucket|sum|count)$/u, "")

const byFamily = (series: ReadonlyArray<Series>): string => {
  const counts = new Map<string, number>()
  for (const s of series) counts.set(family(s.name), (counts.get(family(s.name)) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name.replace(/^scorebridge_/u, "")} ${n}`).join(", ")
}

/** Bytes of the files under `dir` (apparent size) and on disk (allocated blocks). */
const directorySize = (dir: string): { readonly bytes: number; readonly onDisk: number; readonly files: number } => {
  let bytes = 0
  let onDisk = 0
  let files = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const stat = statSync(join(entry.parentPath, entry.name))
    bytes += stat.size
    onDisk += stat.blocks * 512
    files++
  }
  return { bytes, onDisk, files }
}

const releases: Array<() => unknown> = []
const release = async () => {
  while (releases.length > 0) {
    try {
      await releases.pop()!()
    } catch (error) {
      console.error(`cleanup: ${(error as Error).message}`)
    }
  }
}
// Ctrl-C: the exit handlers of scripts/support/child.ts and the daemon's kill their processes.
process.once("SIGINT", () => process.exit(130))

try {
  const dir = tempDir("fleet-cost")
  releases.push(() => rmSync(dir, { recursive: true, force: true }))

  // --- 1. the series of a venue after real activity ---
  const sim = await startSimulator({
    port: 0, requestsPerSecond: 20, burst: 1, clipDelayMs: 500,
    seed: { organizations: [{ key: venue, name: venue, tokens: [token], places: courts.map((key) => ({ key, name: key, sport: "basketball" })) }] }
  })
  releases.push(() => sim.close())
  const control = new SimulatorControl(sim.url)
  const eventKeys = new Map<string, string>()
  for (const place of courts) eventKeys.set(place, (await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: `${place} match` })).eventKey)
  await control.setCameras(cameraOff, false)

  mkdirSync(join(dir, "broker"))
  const broker = await startMosquitto(join(dir, "broker"))
  releases.push(() => broker.stop())
  mkdirSync(join(dir, "state"))
  const listen = `127.0.0.1:${await freePort()}`
  const placeConfig = (key: string): PlaceConfig => jsonCourtOverMqtt(key, scoreTopic(key), busy.includes(key) ? remote(key) : undefined)
  const configFile = writeConfig(join(dir, "scorebridge.yaml"), daemonConfig({
    venue,
    service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory: join(dir, "state"),
    status: { listen },
    // Short follow-ups: every click's outcome is known within a minute.
    clips: { firstReadSeconds: 1, noClipAfterSeconds: 10 },
    mqtt: { url: broker.url, clientId: `fleet-cost-daemon-${process.pid}` },
    buttons: busy.map((place) => ({ name: remote(place), type: "zigbee2mqtt", mqtt: { topics: [remoteTopic(place)] } })),
    places: courts.map(placeConfig)
  }))
  const daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
  releases.push(() => daemon.stop())
  daemon.start()
  await daemon.waitForLog(/MQTT connected/, { timeoutMs: 30_000 })
  const publisher: MqttClient = await connectAsync(broker.url, { clientId: `fleet-cost-peer-${process.pid}`, clean: true })
  releases.push(() => publisher.endAsync(true))

  const momentsAt = async (place: string) => (await control.state()).events.find((e) => e.key === eventKeys.get(place))?.moments.length ?? 0
  const score = (place: string, home: number, away: number) =>
    publisher.publishAsync(scoreTopic(place), JSON.stringify({ score: { home, away }, quarter: 1 }), { qos: 1 })
  /** A press on the court's remote; returns once the simulator holds its moment (the click was accepted). */
  const press = async (place: string) => {
    const before = await momentsAt(place)
    await publisher.publishAsync(remoteTopic(place), JSON.stringify({ action: "single" }), { qos: 1 })
    await eventually(`the click of ${place} at the simulator`, async () => ((await momentsAt(place)) > before ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 })
  }
  const metrics = async () => parseMetrics(await (await fetch(`http://${listen}/metrics`)).text())
  const valueOf = (series: ReadonlyArray<Series>, name: string, labels: Readonly<Record<string, string>>) =>
    series.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0)

  for (const place of courts) await score(place, 0, 0)
  for (let n = 1; n <= pressesPerBusyCourt; n++) {
    for (const place of courts) await score(place, 2 * n, n)
    await Promise.all(busy.map(press))
  }
  await eventually("every follow-up settled and every outbox empty", async () => {
    const series = await metrics()
    const clipsDone = cameraOn.every((p) => valueOf(series, "scorebridge_clips_total", { place: p, outcome: "clip_ready" }) >= pressesPerBusyCourt) &&
      valueOf(series, "scorebridge_clips_total", { place: cameraOff, outcome: "no_clip" }) >= pressesPerBusyCourt
    return clipsDone && valueOf(series, "scorebridge_outbox_pending", {}) === 0 ? true : undefined
  }, { timeoutMs: 90_000, intervalMs: 500 })

  const series = await metrics()
  const placed = (place: string) => series.filter((s) => s.labels["place"] === place)
  const unplaced = series.filter((s) => s.labels["place"] === undefined)
  // A court's button source has links of its own (button:<court>-remote), labelled by link, not place.
  const linkOf = (place: string) => unplaced.filter((s) => s.labels["link"]?.includes(place) === true)
  const courtLinks = unplaced.filter((s) => courts.some((p) => s.labels["link"]?.includes(p) === true))
  const venueFixed = unplaced.filter((s) => !courtLinks.includes(s))
  const n0 = venueFixed.length + scrapeSeries.length
  const perCourt = new Map(courts.map((p) => [p, placed(p).length + linkOf(p).length]))
  const n1 = Math.max(...busy.map((p) => perCourt.get(p)!))
  const nScoreboard = perCourt.get(scoreboardOnly)!
  const measuredVenue = series.length + scrapeSeries.length
  const busyVenue = n0 + 4 * n1

  console.log(`=== 1. Series of a venue (one daemon, ${courts.length} courts, after ${pressesPerBusyCourt} presses on each busy court and their clip follow-ups) ===`)
  console.log(`/metrics sample lines (series) in all: ${series.length}; with a place label: ${series.length - unplaced.length}; without: ${unplaced.length} (of which ${courtLinks.length} are a court's button link)`)
  for (const place of courts) {
    const kind = place === cameraOff ? "busy, camera off (no_clip)" : place === scoreboardOnly ? "scoreboard only" : "busy, camera on (clip_ready)"
    console.log(`  ${place} (${kind}): ${placed(place).length} with place=${place}${linkOf(place).length > 0 ? ` + ${linkOf(place).length} of its button link` : ""} = ${perCourt.get(place)}`)
    console.log(`    ${byFamily([...placed(place), ...linkOf(place)])}`)
  }
  console.log(`  per venue, without a place: ${venueFixed.length} + ${scrapeSeries.length} that the scrape adds (${scrapeSeries.join(", ")}) = ${n0}`)
  console.log(`    ${byFamily(venueFixed)}`)
  console.log(`N0 (per venue, fixed) = ${n0}`)
  console.log(`N1 (per busy court: scores, clicks, clip outcomes) = ${n1} (court with clips ready ${Math.max(...cameraOn.map((p) => perCourt.get(p)!))}, camera off ${perCourt.get(cameraOff)})`)
  console.log(`a court with only a scoreboard = ${nScoreboard}`)
  console.log(`this venue (3 busy courts + 1 scoreboard only) = ${measuredVenue}; a venue of 4 busy courts = N0 + 4 x N1 = ${busyVenue}`)

  const perSeriesKb = [3, 8] as const
  console.log("")
  console.log("Central Prometheus (assumption: one server comfortable at 1-2 million active series with ~16 GB RAM;")
  console.log(`rule of thumb ${perSeriesKb[0]}-${perSeriesKb[1]} kB of RAM per active series, head chunks and index included; 30 s scrapes):`)
  for (const [label, perVenue] of [["4 busy courts", busyVenue], ["3 busy courts + 1 with only a scoreboard (as measured)", measuredVenue]] as const) {
    console.log(`  a venue of ${label}: ${perVenue} series, ${fmt(perVenue / 30, 2)} samples/s`)
    for (const total of [1_000_000, 2_000_000]) {
      const venues = Math.floor(total / perVenue)
      console.log(`    at ${total / 1e6}M series: ${venues} venues, ${Math.round(venues * perVenue / 30)} samples/s ingested, RAM ${fmt(total * perSeriesKb[0] / 1e6)}-${fmt(total * perSeriesKb[1] / 1e6)} GB`)
    }
  }
  for (const venues of [100, 1000]) {
    console.log(`  ${venues} venues of 4 busy courts: ${venues * busyVenue} series, ${Math.round(venues * busyVenue / 30)} samples/s, RAM ${fmt(venues * busyVenue * perSeriesKb[0] / 1e6, 2)}-${fmt(venues * busyVenue * perSeriesKb[1] / 1e6, 2)} GB`)
  }

  // --- 2. the agent beside the bridge, with the shipped settings ---
  // The office's Prometheus; no Alertmanager listens at its address (alerts are not measured here).
  const central: Engine = await startCentral(dir, `http://127.0.0.1:${await freePort()}`)
  releases.push(() => central.stop())
  const agent: Engine = await startAgent(dir, "venue-agent", listen, `${central.url}/api/v1/write`, { shippedTimings: true })
  releases.push(() => agent.stop())
  const agentPid = agent.child.process.pid!
  const daemonPid = daemon.pid()!

  // A match goes on meanwhile: a score change every 5 s on every court, a press on each busy court every minute.
  let playing = true
  const play = (async () => {
    for (let tick = 1; playing && tick <= 200; tick++) {
      for (const place of courts) await score(place, 10 + tick, 5 + Math.floor(tick / 2))
      if (tick % 12 === 0) for (const place of busy) await publisher.publishAsync(remoteTopic(place), JSON.stringify({ action: "single" }), { qos: 1 })
      await sleep(5_000)
    }
  })()
  releases.push(async () => {
    playing = false
    await play
  })

  // Warm-up: the agent's first scrapes have reached the office, then one more scrape.
  const warmFrom = Date.now()
  await eventually("the venue's series at the office", async () =>
    ((await query(central.url, `scorebridge_bridge_info{venue="${venue}"}`)).length > 0 ? true : undefined), { timeoutMs: 120_000, intervalMs: 1_000 })
  await sleep(30_000)
  const warmS = (Date.now() - warmFrom) / 1000

  const samplesSent = async () => {
    const text = await (await fetch(`${agent.url}/metrics`)).text()
    return parseMetrics(text).filter((s) => s.name === "prometheus_remote_storage_samples_total").reduce((sum, s) => sum + s.value, 0)
  }
  const rss = { agent: [] as Array<number>, daemon: [] as Array<number> }
  const cpuFrom = { agent: processCost(agentPid).cpuSeconds, daemon: processCost(daemonPid).cpuSeconds }
  const sentFrom = await samplesSent()
  const windowFrom = Date.now()
  for (let i = 0; i <= windowMs / sampleEveryMs; i++) {
    if (i > 0) await sleep(windowFrom + i * sampleEveryMs - Date.now())
    rss.agent.push(processCost(agentPid).rssKb)
    rss.daemon.push(processCost(daemonPid).rssKb)
  }
  const windowS = (Date.now() - windowFrom) / 1000
  const cpu = { agent: processCost(agentPid).cpuSeconds - cpuFrom.agent, daemon: processCost(daemonPid).cpuSeconds - cpuFrom.daemon }
  const sent = (await samplesSent()) - sentFrom
  const wal = directorySize(join(dir, "venue-agent", "wal"))
  const atOffice = await query(central.url, `count({job="scorebridge"})`)
  const metricsNow = (await metrics()).length

  console.log("")
  console.log(`=== 2. The agent beside the bridge (shipped agent.yml: 30 s scrapes; the unit's flags), ${fmt(windowS, 0)} s window after a ${fmt(warmS, 0)} s warm-up ===`)
  console.log(`RSS sampled every ${sampleEveryMs / 1000} s (${rss.agent.length} samples); CPU % of one core over the window`)
  for (const who of ["agent", "daemon"] as const) {
    console.log(`  ${who === "agent" ? "prometheus agent" : "scorebridge daemon"}: RSS median ${mb(median(rss[who]))}, max ${mb(Math.max(...rss[who]))}; CPU ${fmt(cpu[who], 2)} s = ${fmt(100 * cpu[who] / windowS, 2)} %`)
  }
  console.log(`  samples remote-written in the window: ${sent} (${fmt(sent / windowS, 2)}/s); series at the office for the venue's job: ${atOffice[0]?.value[1] ?? "none"} (/metrics now ${metricsNow} + ${scrapeSeries.length} the scrape adds)`)
  console.log(`  agent WAL directory at the end: ${fmt(wal.bytes / 1024)} kB in ${wal.files} files (${fmt(wal.onDisk / 1024)} kB on disk)`)
} finally {
  await release()
  const loadAfter = loadavg()
  console.log("")
  console.log(`load average (1, 5, 15 min) before: ${loadBefore.map((l) => fmt(l, 2)).join(" ")}, after: ${loadAfter.map((l) => fmt(l, 2)).join(" ")}; 2 cores shared with other work`)
  console.log(`ran ${fmt((Date.now() - startedAt) / 1000, 0)} s`)
}
