import { randomBytes } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { boardLineOptions } from "../../../src/demo/tennis-match.ts"
import { SimulatorControl } from "../../../simulator/control-client.ts"
import { type RunningSimulator, startSimulator } from "../../../simulator/index.ts"
import { daemonConfig, type PlaceConfig, writeConfig } from "../../../scripts/support/daemon-config.ts"
import { freePort } from "../../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../../scripts/support/mosquitto.ts"
import { type PtyPair, startPtyPair } from "../../../scripts/support/pty.ts"
import { type FaultDaemon, faultDaemon, type Wrap } from "../../../scripts/support/fault-daemon.ts"
import { type Proxy, startProxy } from "./proxy.ts"
import { tempDir } from "../../../scripts/support/temp-dir.ts"

/**
 * One fault scenario's world: the simulator (in this process, so its state survives every
 * daemon death), a TCP proxy in front of it (to refuse connections without losing that state),
 * mosquitto, a socat pty for the tennis scoreboard, and the daemon as a real process with a
 * generated config. `court-1` is tennis on the pty; `court-2` is basketball as JSON over MQTT,
 * with a zigbee2mqtt remote making highlights.
 */
export const scoreboardPlace = "court-1"
export const mqttPlace = "court-2"
export const remoteTopic = "zigbee2mqtt/faults-remote"
export const jsonTopic = "faults/court-2/score"
/** Only with `daktronics: true`: a Daktronics RTD console on a second pty. */
export const rtdPlace = "court-3"

export interface WorldOptions {
  /** What the simulator allows per second for the token; the daemon is told `daemonRate` (default: the same). */
  readonly requestsPerSecond?: number
  readonly daemonRate?: number
  readonly timeoutMs?: number
  /** Replaces the state directory in the config (a mount the test prepared). */
  readonly stateDirectory?: string
  /** How the daemon process is started (in a mount namespace, say). */
  readonly wrap?: Wrap
  /** Adds `court-3`, basketball from a Daktronics RTD console on a second pty (`rtdPty`). */
  readonly daktronics?: boolean
}

export interface World {
  readonly dir: string
  readonly token: string
  readonly sim: RunningSimulator
  readonly control: SimulatorControl
  readonly proxy: Proxy
  readonly broker: Mosquitto
  readonly pty: PtyPair
  readonly rtdPty: PtyPair | undefined
  readonly stateDirectory: string
  readonly statusUrl: string
  readonly configFile: string
  readonly daemon: FaultDaemon
  readonly eventKeys: Readonly<Record<string, string>>
  /** The test's own MQTT client, publishing presses and payloads at QoS 1. */
  readonly publisher: MqttClient
  readonly release: () => Promise<void>
}

let worlds = 0
const artifacts = join(import.meta.dirname, "../../../test-artifacts/faults")

export const startWorld = async (name: string, options: WorldOptions = {}): Promise<World> => {
  const dir = tempDir(`faults-${name}`)
  const releases: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })]
  // The daemon's whole output outlives the temp dir, for whoever reads a failure afterwards.
  releases.push(() => {
    const log = join(dir, "daemon.log")
    if (!existsSync(log)) return
    mkdirSync(artifacts, { recursive: true })
    copyFileSync(log, join(artifacts, `${name}-daemon.log`))
  })
  const defer = (release: () => unknown) => releases.push(release)
  const release = async () => {
    // Bounded: every pass pops one.
    while (releases.length > 0) await releases.pop()!()
  }
  try {
    // Long and random, so finding it anywhere means it leaked rather than matched by chance.
    const token = `faults-token-${randomBytes(18).toString("hex")}`
    const requestsPerSecond = options.requestsPerSecond ?? 50
    const sim = await startSimulator({
      port: 0,
      requestsPerSecond,
      burst: 1,
      clipDelayMs: 200,
      seed: {
        organizations: [{
          key: "faults-org",
          name: "Fault suite",
          tokens: [token],
          places: [
            { key: scoreboardPlace, name: "Court 1", sport: "tennis" },
            { key: mqttPlace, name: "Court 2", sport: "basketball" },
            { key: rtdPlace, name: "Court 3", sport: "basketball" }
          ]
        }]
      }
    })
    defer(() => sim.close())
    const control = new SimulatorControl(sim.url)
    const eventKeys: Record<string, string> = {}
    for (const place of [scoreboardPlace, mqttPlace, rtdPlace]) {
      eventKeys[place] = (await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: `${name} ${place}` })).eventKey
    }
    const proxy = await startProxy(sim.port)
    defer(() => proxy.close())
    const brokerDir = join(dir, "broker")
    mkdirSync(brokerDir)
    const broker = await startMosquitto(brokerDir)
    defer(() => broker.stop())
    const pty = await startPtyPair(dir, "scoreboard")
    defer(() => pty.stop())
    const rtdPty = options.daktronics === true ? await startPtyPair(dir, "rtd") : undefined
    if (rtdPty !== undefined) defer(() => rtdPty.stop())
    const publisher = await connectAsync(broker.url, { clientId: `faults-publisher-${process.pid}-${++worlds}`, clean: true, reconnectPeriod: 200 })
    defer(() => publisher.endAsync(true))

    const stateDirectory = options.stateDirectory ?? join(dir, "state")
    if (options.stateDirectory === undefined) mkdirSync(stateDirectory)
    const statusListen = `127.0.0.1:${await freePort()}`
    const configFile = join(dir, "scorebridge.yaml")
    writeConfig(configFile, daemonConfig({
      service: { baseUrl: proxy.url, requestsPerSecond: options.daemonRate ?? requestsPerSecond, timeoutMs: options.timeoutMs ?? 2_000 },
      stateDirectory,
      status: { listen: statusListen },
      log: { level: "info" },
      mqtt: { url: broker.url, clientId: `faults-daemon-${process.pid}-${worlds}` },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [
        {
          key: scoreboardPlace,
          sport: "tennis",
          scoreboard: { protocol: "lines", serial: { path: pty.daemonPath, baudRate: 9600 }, options: { pattern: boardLineOptions.pattern } }
        },
        {
          key: mqttPlace,
          sport: "basketball",
          scoreboard: {
            protocol: "json",
            mqtt: { topics: [jsonTopic] },
            options: { framing: "message", fields: { home: "score.home", away: "score.away", period: "quarter", clock: "clock" } }
          },
          // Presses go to the place without a serial scoreboard: a click carries the place's score,
          // which the service adds to the score stream, and the entries check must see only entries.
          actions: [{ source: "remote", gesture: "single", do: "highlight", team: "home" }]
        },
        ...(rtdPty === undefined ? [] : [{
          key: rtdPlace,
          sport: "basketball",
          scoreboard: { protocol: "daktronics-rtd", serial: { path: rtdPty.daemonPath, baudRate: 19200 } }
        } satisfies PlaceConfig])
      ]
    }))
    const daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token }, options.wrap)
    // Killed before the broker and pty go, so its last log lines are about the fault, not teardown.
    defer(() => daemon.kill9())
    return {
      dir, token, sim, control, proxy, broker, pty, rtdPty, stateDirectory, statusUrl: `http://${statusListen}`, configFile, daemon, eventKeys, publisher,
      release
    }
  } catch (error) {
    await release()
    throw error
  }
}
