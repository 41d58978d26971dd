import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { SimulatorControl } from "../simulator/control-client.ts"
import { type SimulatorSeed, startSimulator } from "../simulator/index.ts"
import { freePort } from "../scripts/support/free-port.ts"
import { startMosquitto } from "../scripts/support/mosquitto.ts"
import { openWriter, type PtyWriter, startPtyPair } from "../scripts/support/pty.ts"
import type { Cleanup } from "./cleanup.ts"
import { clockAt, consoles, type BenchConsole, type Board, type ProtocolName } from "./consoles.ts"

export const token = "bench-token"
export const requestsPerSecond = 1

/** Two places per protocol: every decoder is on the path, as at a mixed venue. */
const protocolOrder: ReadonlyArray<ProtocolName> = ["daktronics-rtd", "stramatel-452m", "lines", "json"]

export interface Place {
  readonly key: string
  readonly console: BenchConsole
  readonly eventKey: string
  /** Events that ran on the place before its live one, oldest first (the backlog phase's); none by default. */
  readonly pastEventKeys: ReadonlyArray<string>
  readonly buttonTopic: string
  readonly daemonPath: string
  /** Writes one frame to the console end of the place's pty. */
  readonly write: (bytes: Uint8Array) => void
  /** The board now shown; `show` changes it. */
  board: Board
  /** Seconds the clock has run, for ticks. */
  clockSeconds: number
}

export interface Venue {
  readonly places: ReadonlyArray<Place>
  readonly control: SimulatorControl
  readonly mqtt: MqttClient
  readonly configPath: string
  readonly stateDirectory: string
  /** The daemon's status server (the page, status.json, /metrics, the timelines). */
  readonly statusUrl: string
  /** The daemon's config text with another state directory, everything else as in `configPath` (the slow-disk phase's second daemon). */
  readonly configFor: (stateDirectory: string) => string
}

/**
 * The simulator (1 request/s per token) with one live event per place, mosquitto, one socat pty
 * pair per place, a button publisher, and the daemon's config: 8 basketball places, each with a
 * scoreboard on its pty and a zigbee2mqtt remote whose single press is a highlight.
 */
export const startVenue = async (
  cleanup: Cleanup,
  dir: string,
  placeCount: number,
  /** Events started and closed on each place before its live one (the backlog phase's past events). */
  { pastEvents = 0 }: { readonly pastEvents?: number } = {}
): Promise<Venue> => {
  const keys = Array.from({ length: placeCount }, (_, i) => `court-${i + 1}`)
  const seed: SimulatorSeed = {
    organizations: [{
      key: "bench-org",
      name: "Benchmark venue",
      tokens: [token],
      places: keys.map((key) => ({ key, name: key, sport: "basketball" }))
    }]
  }
  const sim = await startSimulator({ port: 0, requestsPerSecond, burst: 1, seed })
  cleanup.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)

  const broker = await startMosquitto(dir)
  cleanup.defer(() => broker.stop())
  const mqtt = await connectAsync(broker.url, { clientId: `scorebridge-bench-buttons-${process.pid}`, clean: true })
  cleanup.defer(() => mqtt.endAsync(true))

  const places: Array<Place> = []
  for (const [i, key] of keys.entries()) {
    const pty = await startPtyPair(dir, key)
    cleanup.defer(() => pty.stop())
    const pastEventKeys: Array<string> = []
    for (let k = 1; k <= pastEvents; k++) {
      pastEventKeys.push((await control.startEvent(key, { homeTeam: "Home", awayTeam: "Away", name: `${key} past ${k}` })).eventKey)
      await control.closeEvent(key)
    }
    const { eventKey } = await control.startEvent(key, { homeTeam: "Home", awayTeam: "Away", name: `${key} bench` })
    // Opened lazily: bytes written before the daemon opens its end would reach it stale.
    let writer: PtyWriter | undefined
    cleanup.defer(() => writer?.close())
    places.push({
      key,
      console: consoles[protocolOrder[i % protocolOrder.length]!],
      eventKey,
      pastEventKeys,
      buttonTopic: `zigbee2mqtt/bench-remote-${i + 1}`,
      daemonPath: pty.daemonPath,
      write: (bytes) => (writer ??= openWriter(pty.writerPath)).write(bytes),
      board: { home: 0, away: 0, period: 1, clock: clockAt(0) },
      clockSeconds: 0
    })
  }

  // systemd's StateDirectory= creates it for the service; the daemon expects it to exist.
  const stateDirectory = join(dir, "state")
  mkdirSync(stateDirectory)
  const statusPort = await freePort()
  const configFor = (stateDirectory: string) => configText({ baseUrl: sim.url, mqttUrl: broker.url, stateDirectory, statusPort, places })
  const configPath = join(dir, "scorebridge.yaml")
  writeFileSync(configPath, configFor(stateDirectory))
  return { places, control, mqtt, configPath, stateDirectory, statusUrl: `http://127.0.0.1:${statusPort}`, configFor }
}

/** `SCOREBRIDGE_BENCH_FOLLOW_UPS=off npm run bench`: the same run with clip follow-ups off, to compare. */
const followUps = process.env["SCOREBRIDGE_BENCH_FOLLOW_UPS"] !== "off"

const configText = (c: {
  readonly baseUrl: string
  readonly mqttUrl: string
  readonly stateDirectory: string
  readonly statusPort: number
  readonly places: ReadonlyArray<Place>
}): string =>
  [
    "service:",
    `  baseUrl: ${c.baseUrl}`,
    "  token: { env: SCOREBRIDGE_TOKEN }",
    `  requestsPerSecond: ${requestsPerSecond}`,
    "  timeoutMs: 5000",
    `stateDirectory: ${c.stateDirectory}`,
    `status: { listen: "127.0.0.1:${c.statusPort}" }`,
    "log: { level: info }",
    // Clicks are followed until their clips exist unless the run compares without (docs/performance.md).
    ...(followUps ? [] : ["clips: { followUp: false }"]),
    "mqtt:",
    `  url: ${c.mqttUrl}`,
    `  clientId: scorebridge-bench-daemon-${process.pid}`,
    "buttons:",
    ...c.places.flatMap((p, i) => [
      `  - name: remote-${i + 1}`,
      "    type: zigbee2mqtt",
      `    mqtt: { topics: [${p.buttonTopic}] }`
    ]),
    "places:",
    ...c.places.flatMap((p, i) => [
      `  - key: ${p.key}`,
      "    sport: basketball",
      "    scoreboard:",
      `      protocol: ${p.console.protocol}`,
      `      serial: { path: ${p.daemonPath} }`,
      `      options: ${JSON.stringify(p.console.options)}`,
      "    actions:",
      `      - { source: remote-${i + 1}, gesture: single, do: highlight }`
    ]),
    ""
  ].join("\n")

/** Shows a new score on the place's console (home + 1); returns when the frame was written. */
export const writeScoreChange = (place: Place): { readonly writtenAt: number; readonly home: number } => {
  place.board = { ...place.board, home: place.board.home + 1 }
  const bytes = place.console.change(place.board)
  const writtenAt = Date.now()
  place.write(bytes)
  return { writtenAt, home: place.board.home }
}

/** The clock moved one second: a frame that must not become an entry. */
export const writeTick = (place: Place): void => {
  place.clockSeconds++
  place.board = { ...place.board, clock: clockAt(place.clockSeconds) }
  place.write(place.console.tick(place.board))
}

/** A zigbee2mqtt single press on the place's remote; returns when it was handed to the broker. */
export const pressButton = async (venue: Venue, place: Place): Promise<number> => {
  const publishedAt = Date.now()
  await venue.mqtt.publishAsync(place.buttonTopic, JSON.stringify({ action: "single", linkquality: 120 }), { qos: 0 })
  return publishedAt
}
