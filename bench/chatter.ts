/**
 * The `chatter` phase (issue 34): the venue's broker also carries 100 zigbee2mqtt devices (sensors,
 * plugs, other remotes) each reporting its state once a second. The daemon's buttons are subscribed
 * by wildcard, one filter per court (`zigbee2mqtt/court-N/+`, the friendly names grouped by court),
 * so 80 of those devices reach its button decoders, which must find no press in them. Its persistent
 * session also keeps the catch-all `zigbee2mqtt/#` of an older config, which carries the other 20
 * (`zigbee2mqtt/lobby/…`): messages no stream takes, acknowledged and dropped. The same presses as
 * in the quiet run must not become slower clicks, nor the daemon bigger.
 *
 * Self-contained: its own simulator, mosquitto, ptys and daemon (in `dir/chatter`), all stopped when
 * the phase ends. About 2 minutes.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { type Cleanup, makeCleanup } from "./cleanup.ts"
import { type Daemon, startDaemon } from "./daemon-process.ts"
import { allRequests, matchClicks, type Press, settle } from "./deliveries.ts"
import { type Heading, type LatencyFigure, say, sayLatency } from "./report.ts"
import { round1, sleep } from "./stats.ts"
import { waitUntilReady, warmUp } from "./startup.ts"
import { startTicking } from "./steady.ts"
import { pressButton, startVenue, token, type Venue } from "./venue.ts"

const placeCount = 8
const deviceCount = 100
/** Of the devices, those under the courts' wildcards; the rest are on the stale filter only. */
const courtDevices = 80
const pressCount = 100
/** One press every this long, round-robin over the courts. */
const pressEveryMs = 400
/**
 * The token's rate in this phase (the service's and the daemon's): a slot of 10 ms. At the bench's
 * 1 request/s, the look-ups of the courts' live events (every 30 s each, no score changes keep them
 * known here) take slots just before presses, and a click waiting up to a second behind one measures
 * the token, not the way its press came in.
 */
const tokenRate = 100
/** The filter an older config had, left in the broker's session. */
const staleFilter = "zigbee2mqtt/#"

export interface ChatterFigures {
  readonly quietClickLatencyMs: { readonly p50: number; readonly p99: number }
  readonly clickLatencyMs: { readonly p50: number; readonly p99: number }
  readonly rssMb: number
}

/** The quiet click latency, then the same presses among 100 chattering devices, and the daemon's RSS at the end. */
export const chatterPhase = async (heading: Heading, cleanup: Cleanup, dir: string): Promise<ChatterFigures> => {
  heading(`chatter: ${pressCount} presses quiet, then among ${deviceCount} zigbee2mqtt devices reporting once a second on the daemon's wildcard filters and a stale one (token at ${tokenRate} requests/s)`)
  // Everything of this phase stops when it ends; the bench's own clean-up still stops it on Ctrl-C.
  const own = makeCleanup()
  cleanup.defer(own.releaseAll)
  try {
    const { venue, daemon } = await startChatterVenue(own, join(dir, "chatter"))
    const quiet = await measureClicks(venue, daemon, "quiet")
    const chatter = startChatter(venue, await connectAsync(brokerUrl(venue), { clientId: `scorebridge-bench-zigbee2mqtt-${process.pid}`, clean: true }))
    own.defer(chatter.stop)
    // A few rounds of every device first: what it costs has settled in before the first press.
    await sleep(3_000)
    const loud = await measureClicks(venue, daemon, "chatter")
    const published = chatter.stop()
    const rssMb = loud.rssMb
    const stale = daemon.logs().filter((line) => /dropped: no stream of this bridge subscribes to it/.test(line.msg)).length
    say(`  ${published} device messages published; the daemon warned of ${stale} topics on the stale filter ${staleFilter}`)
    say(`  click p99: quiet ${quiet.clicks.p99} ms, chatter ${loud.clicks.p99} ms (target: within 5 ms); daemon RSS at the end of the chatter ${rssMb} MB (target ≤ 86)`)
    if (stale === 0) throw new Error(`the stale filter ${staleFilter} carried nothing to the daemon: its session did not keep it`)
    return {
      quietClickLatencyMs: { p50: quiet.clicks.p50, p99: quiet.clicks.p99 },
      clickLatencyMs: { p50: loud.clicks.p50, p99: loud.clicks.p99 },
      rssMb
    }
  } finally {
    await own.releaseAll()
  }
}

const brokerUrl = (venue: Venue): string => `mqtt://${venue.mqtt.options.hostname}:${venue.mqtt.options.port}`

/** The bench's venue with each court's remote named `court-N/remote`, so that its court's wildcard carries it. */
const courtVenue = (venue: Venue): Venue => ({
  ...venue,
  places: venue.places.map((place) => ({ ...place, buttonTopic: `zigbee2mqtt/${place.key}/remote` }))
})

/**
 * The daemon's config with each court's remote subscribed by its court's wildcard, `extra` added
 * to the first remote's filters, the phase's token rate and no clip follow-ups.
 */
const wildcardConfig = (venue: Venue, extra: ReadonlyArray<string>): string => {
  // Clip follow-ups off: their moment reads would take slots too.
  let text = rewrite(venue.configFor(venue.stateDirectory).replace(/^clips: .*\n/m, ""), /^mqtt:$/m, "clips: { followUp: false }\nmqtt:")
  text = rewrite(text, /^ {2}requestsPerSecond: .*$/m, `  requestsPerSecond: ${tokenRate}`)
  for (const [i, place] of venue.places.entries()) {
    const filters = [`zigbee2mqtt/${place.key}/+`, ...(i === 0 ? extra : [])]
    text = rewrite(text, `mqtt: { topics: [zigbee2mqtt/bench-remote-${i + 1}] }`, `mqtt: { topics: [${filters.map((f) => JSON.stringify(f)).join(", ")}] }`)
  }
  return text
}

/** `text` with `what` replaced, which must be there: bench/venue.ts's config is rewritten, and a line it no longer writes must not go unnoticed. */
const rewrite = (text: string, what: string | RegExp, by: string): string => {
  const found = typeof what === "string" ? text.includes(what) : what.test(text)
  if (!found) throw new Error(`bench/venue.ts's daemon config no longer has ${String(what)}: chatter.ts rewrites it`)
  return text.replace(what, by)
}

/**
 * The venue, and its daemon started twice on the same state and client id: first with a config
 * that also subscribes `staleFilter`, then with the config the phase measures, which does not.
 * The broker keeps the old filter in the persistent session.
 */
const startChatterVenue = async (cleanup: Cleanup, dir: string): Promise<{ readonly venue: Venue; readonly daemon: Daemon }> => {
  mkdirSync(dir, { recursive: true })
  const venue = courtVenue(await startVenue(cleanup, dir, placeCount))
  await venue.control.setRate({ requestsPerSecond: tokenRate, burst: 1 })
  const oldConfig = join(dir, "scorebridge-old.yaml")
  writeFileSync(oldConfig, wildcardConfig(venue, [staleFilter]))
  writeFileSync(venue.configPath, wildcardConfig(venue, []))

  const older = startDaemon(oldConfig, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap-old.ndjson"))
  cleanup.defer(() => older.stop())
  await waitUntilReady(older, placeCount)
  await waitForLog(older, (msg) => msg.startsWith("MQTT subscribed to") && msg.includes(staleFilter), `its subscription to ${staleFilter}`)
  await older.stop()

  const daemon = startDaemon(venue.configPath, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap.ndjson"))
  cleanup.defer(() => daemon.stop())
  const startupMs = await waitUntilReady(daemon, placeCount)
  if (!daemon.logs().some((line) => line.msg === "MQTT connected (session resumed)")) throw new Error("the daemon's MQTT session was not resumed")
  cleanup.defer(startTicking(venue))
  await warmUp(venue, "chatter: ")
  say(`  daemon restarted without ${staleFilter} on its resumed session, ready in ${startupMs} ms, warmed up`)
  return { venue, daemon }
}

const waitForLog = async (daemon: Daemon, matches: (msg: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (daemon.logs().some((line) => matches(line.msg))) return
    await sleep(20)
  }
  throw new Error(`the daemon did not log ${what} within ${timeoutMs} ms`)
}

/**
 * `pressCount` presses round-robin over the courts, one every `pressEveryMs`: each press's latency
 * to its accepted click, and the daemon's RSS as the last press went out (before the heap probe's
 * forced GC, which would flatter it).
 */
const measureClicks = async (venue: Venue, daemon: Daemon, label: string): Promise<{ readonly clicks: LatencyFigure; readonly rssMb: number }> => {
  const cpuBefore = daemon.cpuSeconds()
  const startedAt = Date.now()
  const presses: Array<Press> = []
  for (let i = 0; i < pressCount; i++) {
    const place = venue.places[i % venue.places.length]!
    presses.push({ place, publishedAt: await pressButton(venue, place) })
    await sleep(Math.max(0, startedAt + (i + 1) * pressEveryMs - Date.now()))
  }
  const cpu = (daemon.cpuSeconds() - cpuBefore) / ((Date.now() - startedAt) / 1000)
  const rssMb = round1(daemon.rssMb().rss)
  await settle(venue, 1_500, 30_000)
  const clicks = sayLatency(`click ${label}`, matchClicks(await allRequests(venue), presses), { slowest: true })
  const heap = await daemon.heapSample()
  const stalls = heap.stalls.filter((stall) => stall.at >= startedAt)
  say(`  daemon while ${label}: CPU ${(cpu * 100).toFixed(1)} % of one core, RSS ${rssMb} MB, heap after GC ${(heap.heapUsed / 2 ** 20).toFixed(2)} MB, ` +
    `${stalls.length} event-loop stalls over 20 ms${stalls.length === 0 ? "" : ` (longest ${Math.max(...stalls.map((stall) => stall.ms))} ms)`}`)
  return { clicks, rssMb }
}

/** What zigbee2mqtt publishes for a device that is no pressed button: its state, often with an empty or absent `action`. */
const deviceState = (i: number, round: number): string => {
  const common = { linkquality: 60 + ((i * 7 + round) % 120), last_seen: new Date().toISOString() }
  switch (i % 4) {
    case 0: // a temperature sensor
      return JSON.stringify({ battery: 100 - (i % 30), humidity: 40 + (round % 20) / 10, pressure: 1013.2, temperature: 21 + (i % 5) / 10, voltage: 2985, ...common })
    case 1: // another remote, idle: zigbee2mqtt clears its action to ""
      return JSON.stringify({ action: "", battery: 87, voltage: 3025, device_temperature: 24, power_outage_count: 3, ...common })
    case 2: // a smart plug
      return JSON.stringify({ current: 0.12, energy: 12.34 + round / 1000, power: 27.5, state: "ON", voltage: 231, update: { state: "idle" }, ...common })
    default: // a motion sensor whose action zigbee2mqtt sets to null
      return JSON.stringify({ action: null, battery: 64, illuminance: 120 + (round % 9), occupancy: round % 7 === 0, ...common })
  }
}

const deviceTopic = (venue: Venue, i: number): string =>
  i < courtDevices ? `zigbee2mqtt/${venue.places[i % venue.places.length]!.key}/device-${i + 1}` : `zigbee2mqtt/lobby/device-${i + 1}`

/**
 * Every device once a second, spread evenly over the second (QoS 0, as zigbee2mqtt publishes),
 * until stopped; `stop` returns how many messages went out and ends the client.
 */
const startChatter = (venue: Venue, client: MqttClient): { readonly stop: () => number } => {
  let published = 0
  let stopped = false
  const startedAt = Date.now()
  // By the clock rather than one per tick: timers run late under load, and the rate must not drop with them.
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - startedAt) * deviceCount) / 1_000)
    for (; published < due; published++) {
      const i = published % deviceCount
      client.publish(deviceTopic(venue, i), deviceState(i, Math.floor(published / deviceCount)), { qos: 0 })
    }
  }, 1_000 / deviceCount)
  return {
    stop: () => {
      if (!stopped) {
        stopped = true
        clearInterval(timer)
        client.end(true)
      }
      return published
    }
  }
}
