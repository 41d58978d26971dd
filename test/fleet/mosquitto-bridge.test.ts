import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type IClientOptions, type MqttClient } from "mqtt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { faultDaemon, type FaultDaemon } from "../../scripts/support/fault-daemon.ts"
import { tokenLeaks } from "../faults/support/token-scan.ts"
import { type ConfiguredMosquitto, startConfiguredMosquitto } from "../support/configured-mosquitto.ts"
import { daemonConfig, jsonCourtOverMqtt, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { makeTestCa, type TestCa } from "../support/test-ca.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * deploy/mosquitto/ as shipped, with two real brokers: the venue's local mosquitto runs
 * scorebridge-bridge.conf (its placeholders replaced, nothing else changed) and bridges over TLS
 * to a "central" mosquitto running central-listener.conf and central-venues.acl, whose
 * certificate a throw-away CA signed. The daemon (a real process) and the simulator run at the
 * venue; the test reads the central broker as the office would (TLS, the ACL's `office` account).
 * The default authentication (user name and password) carries the whole path; the files'
 * commented alternative (client certificates) is switched on as their comments say and carries
 * the bridge's state.
 */
const deploy = join(import.meta.dirname, "../../deploy/mosquitto")
const venue = "test-venue"
const central = `venues/${venue}`
const bridgeStateTopic = `${central}/scorebridge/bridge/state`

type Authentication = "password" | "certificate"

interface Received {
  readonly client: string
  readonly topic: string
  readonly payload: string
  readonly retain: boolean
}

/** Replaces each placeholder of a shipped file; fails if one is missing (the file changed under the test). */
const substitute = (text: string, replacements: ReadonlyArray<readonly [string, string]>): string =>
  replacements.reduce((result, [placeholder, value]) => {
    if (!result.includes(placeholder)) throw new Error(`${JSON.stringify(placeholder)} is not in the shipped file`)
    return result.split(placeholder).join(value)
  }, text)

/** The lines mosquitto reads (no comments, no blank lines). */
const settings = (text: string) => text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"))

const shipped = (name: string) => readFileSync(join(deploy, name), "utf8")

/**
 * Both brokers from the shipped files, and the office's subscriber on `venues/#`: what a test
 * needs before the venue's devices and daemon come in. Everything it starts is released by
 * `release()`, newest first.
 */
const startBrokers = async (dir: string, authentication: Authentication) => {
  const releases: Array<() => unknown> = []
  const received: Array<Received> = []
  const pki = join(dir, "pki")
  mkdirSync(pki)
  const ca: TestCa = makeTestCa(pki)
  const server = ca.server("central")

  // The central broker: listener snippet and ACL as shipped, a password file made with
  // mosquitto_passwd as the snippet's header says (the venue, the office's reader).
  const bridgePassword = `bridge-password-${process.pid}`
  const officePassword = `office-password-${process.pid}`
  const centralDir = join(dir, "central")
  mkdirSync(centralDir)
  const passwords = join(centralDir, "scorebridge-venues.passwd")
  writeFileSync(passwords, "")
  execFileSync("mosquitto_passwd", ["-b", passwords, venue, bridgePassword], { timeout: 10_000 })
  execFileSync("mosquitto_passwd", ["-b", passwords, "office", officePassword], { timeout: 10_000 })
  const acl = join(centralDir, "scorebridge-venues.acl")
  writeFileSync(acl, substitute(shipped("central-venues.acl"), [["VENUE", venue]]))
  const centralPort = await freePort()
  const listener = substitute(shipped("central-listener.conf"), [
    // Loopback only in a test; the shipped line listens on every interface.
    ["\nlistener 8883\n", `\nlistener ${centralPort} 127.0.0.1\n`],
    ["/etc/mosquitto/certs/central.crt", server.cert],
    ["/etc/mosquitto/certs/central.key", server.key],
    ["/etc/mosquitto/scorebridge-venues.passwd", passwords],
    ["/etc/mosquitto/scorebridge-venues.acl", acl]
  ])
  const centralBroker = await startConfiguredMosquitto(centralDir, {
    port: centralPort,
    main: ["persistence false"],
    confD: {
      "scorebridge-venues.conf": authentication === "password" ? listener : substitute(listener, [
        ["\n#cafile /etc/mosquitto/certs/scorebridge-venues-ca.crt\n", `\ncafile ${ca.cert}\n`],
        ["\n#require_certificate true\n", "\nrequire_certificate true\n"],
        ["\n#use_identity_as_username true\n", "\nuse_identity_as_username true\n"]
      ])
    }
  })
  releases.push(() => centralBroker.stop())

  const officeIdentity: IClientOptions = authentication === "password"
    ? { username: "office", password: officePassword }
    : (({ cert, key }) => ({ cert: readFileSync(cert), key: readFileSync(key) }))(ca.client("office"))
  let clients = 0
  /** A client of the central broker as the office's reader: TLS verifying the broker's certificate. */
  const officeClient = async (name: string): Promise<MqttClient> => {
    const client = await connectAsync(`mqtts://127.0.0.1:${centralPort}`, {
      clientId: `office-${name}-${process.pid}-${clients++}`,
      clean: true,
      ca: readFileSync(ca.cert),
      rejectUnauthorized: true,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ...officeIdentity
    })
    client.on("message", (topic, payload, packet) => {
      received.push({ client: name, topic, payload: payload.toString("utf8"), retain: packet.retain })
    })
    return client
  }
  const office = await officeClient("office")
  releases.push(() => office.endAsync(true))
  await office.subscribeAsync("venues/#", { qos: 1 })

  // The venue's broker: a plain loopback listener for the daemon and the devices (its own
  // mosquitto.conf, as on the mini-PC), and the shipped bridge in conf.d.
  let bridgeFile = shipped("scorebridge-bridge.conf")
  if (authentication === "certificate") {
    const client = ca.client(venue)
    bridgeFile = substitute(bridgeFile, [
      ["\nremote_username VENUE\nremote_password BRIDGE-PASSWORD\n", "\n#remote_username VENUE\n#remote_password BRIDGE-PASSWORD\n"],
      ["\n#bridge_certfile /etc/mosquitto/certs/scorebridge-VENUE.crt\n", `\nbridge_certfile ${client.cert}\n`],
      ["\n#bridge_keyfile /etc/mosquitto/certs/scorebridge-VENUE.key\n", `\nbridge_keyfile ${client.key}\n`]
    ])
  }
  const bridgeConfig = substitute(bridgeFile, [
    ["central.example.com:8883", `127.0.0.1:${centralPort}`],
    ["/etc/mosquitto/certs/scorebridge-central-ca.crt", ca.cert],
    ["BRIDGE-PASSWORD", bridgePassword],
    ["VENUE", venue]
  ])
  const venueDir = join(dir, "venue")
  mkdirSync(venueDir)
  const venuePort = await freePort()
  const venueBroker = await startConfiguredMosquitto(venueDir, {
    port: venuePort,
    main: [
      `listener ${venuePort} 127.0.0.1`,
      "allow_anonymous true",
      "set_tcp_nodelay true",
      "persistence true",
      `persistence_location ${venueDir}/`
    ],
    confD: { "scorebridge-bridge.conf": bridgeConfig }
  })
  releases.push(() => venueBroker.stop())

  const brokerLogs = () => `venue broker:\n${venueBroker.log()}\ncentral broker:\n${centralBroker.log()}`
  return {
    received,
    bridgeConfig,
    venueUrl: `mqtt://127.0.0.1:${venuePort}`,
    brokerLogs,
    /** Waits until the office's subscriber got a message matching `match` (after index `from`). */
    seen: (
      what: string,
      match: (m: Received) => boolean,
      { from = 0, timeoutMs = 15_000, context = () => "" }: { readonly from?: number; readonly timeoutMs?: number; readonly context?: () => string } = {}
    ) =>
      eventually(what, () => received.slice(from).find((m) => m.client === "office" && match(m)), { timeoutMs, intervalMs: 25 })
        .catch((error: Error) => {
          throw new Error(`${error.message}\ncentral received:\n${received.map((m) => `${m.topic} ${m.payload}`).join("\n")}\n` +
            `${brokerLogs()}\n${context()}`)
        }),
    /** What a new subscriber of `topic` gets as its retained message (the office opening a dashboard). */
    retained: async (topic: string): Promise<string> => {
      const client = await officeClient("retained")
      try {
        const from = received.length
        await client.subscribeAsync(topic, { qos: 1 })
        const message = await eventually(`a retained message on ${topic}`, () =>
          received.slice(from).find((m) => m.client === "retained" && m.topic === topic && m.retain), { timeoutMs: 5_000 })
        return message.payload
      } finally {
        await client.endAsync(true)
      }
    },
    release: async () => {
      while (releases.length > 0) await releases.pop()!()
    }
  }
}

type Brokers = Awaited<ReturnType<typeof startBrokers>>

describe("deploy/mosquitto: the venue's broker bridges the daemon's topics to the office over TLS", () => {
  const place = "court-1"
  const token = `bridge-token-${process.pid}`
  const remoteTopic = "zigbee2mqtt/bridge-remote"
  const scoreTopic = "venue-scoreboards/court-1/score"
  const releases: Array<() => unknown> = []
  let dir: string
  let brokers: Brokers
  let daemon: FaultDaemon
  let control: SimulatorControl
  let eventKey: string

  beforeAll(async () => {
    dir = tempDir("mosquitto-bridge")
    releases.push(() => rmSync(dir, { recursive: true, force: true }))
    brokers = await startBrokers(dir, "password")
    releases.push(() => brokers.release())

    const sim = await startSimulator({
      port: 0, requestsPerSecond: 20, burst: 1, clipDelayMs: 500,
      seed: { organizations: [{ key: "bridge-org", name: "Bridge", tokens: [token], places: [{ key: place, name: "Court 1", sport: "basketball" }] }] }
    })
    releases.push(() => sim.close())
    control = new SimulatorControl(sim.url)
    eventKey = (await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: "bridge e2e" })).eventKey

    const stateDirectory = join(dir, "state")
    mkdirSync(stateDirectory)
    const configFile = writeConfig(join(dir, "scorebridge.yaml"), daemonConfig({
      venue,
      service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
      stateDirectory,
      status: { listen: `127.0.0.1:${await freePort()}`, publishReadings: true },
      log: { level: "info" },
      clips: { firstReadSeconds: 1, noClipAfterSeconds: 10 },
      mqtt: { url: brokers.venueUrl, clientId: `bridge-e2e-daemon-${process.pid}` },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [{ ...jsonCourtOverMqtt(place, scoreTopic, "remote"), clicks: { feedbackTopic: `scorebridge/${place}/feedback` } }]
    }))
    daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
    releases.push(() => daemon.kill9())
  }, 30_000)

  afterAll(async () => {
    while (releases.length > 0) await releases.pop()!()
  }, 30_000)

  const seen = (what: string, match: (m: Received) => boolean, from = 0) =>
    brokers.seen(what, match, { from, context: () => `daemon:\n${daemon.tail()}` })

  it("the bridge the venue's broker runs is the shipped file: outbound only, every placeholder replaced", () => {
    const lines = settings(brokers.bridgeConfig)
    expect(lines.filter((l) => /VENUE|example\.com|BRIDGE-PASSWORD|\/etc\//u.test(l))).toEqual([])
    expect(lines).toContain(`topic scorebridge/# out 1 "" venues/${venue}/`)
    // Nothing flows from the office to the venue.
    expect(lines.filter((l) => l.startsWith("topic ") && !/ out /u.test(l))).toEqual([])
  })

  it("bridge/state, a reading, a press's feedback and its clip outcome reach the office under venues/<venue>/; a kill -9 shows offline; the token nowhere", async () => {
    await seen("the venue's broker connected to the office", (m) => m.topic === `${central}/broker/connection` && m.payload === "1")

    daemon.start()
    await daemon.waitForLog(/MQTT connected/)
    await seen("bridge/state online", (m) => m.topic === bridgeStateTopic && m.payload === "online")
    expect(await brokers.retained(bridgeStateTopic)).toBe("online")

    const devices = await connectAsync(brokers.venueUrl, { clientId: `bridge-e2e-devices-${process.pid}`, clean: true, reconnectPeriod: 0 })
    releases.push(() => devices.endAsync(true))
    await devices.publishAsync(scoreTopic, JSON.stringify({ score: { home: 3, away: 1 }, quarter: 2 }), { qos: 1 })
    const reading = await seen("court-1's reading", (m) => m.topic === `${central}/scorebridge/${place}/reading`)
    expect(JSON.parse(reading.payload)).toMatchObject({ home: 3, away: 1, period: 2 })

    await devices.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const feedback = `${central}/scorebridge/${place}/feedback`
    const status = (m: Received) => (JSON.parse(m.payload) as { status?: string }).status
    const pressed = await seen("the press's feedback", (m) => m.topic === feedback && status(m) === "queued")
    expect(JSON.parse(pressed.payload)).toMatchObject({ place, status: "queued" })
    const outcome = await seen("the press's clip outcome", (m) => m.topic === feedback && status(m) === "clip-ready")
    const moments = (await control.state()).events.find((e) => e.key === eventKey)!.moments
    expect(moments).toHaveLength(1)
    expect(JSON.parse(outcome.payload)).toMatchObject({ place, status: "clip-ready", momentKey: moments[0]!.key, angles: 2 })

    // Killed: no orderly offline from the daemon; the venue's broker publishes its last will and
    // the bridge forwards it, retained.
    const from = brokers.received.length
    await daemon.kill9()
    await seen("offline at the office", (m) => m.topic === bridgeStateTopic && m.payload === "offline", from)
    expect(await brokers.retained(bridgeStateTopic)).toBe("offline")
    // The link itself stayed up.
    expect(await brokers.retained(`${central}/broker/connection`)).toBe("1")

    // Everything the office saw is under the venue's prefix, and the token is in none of it, nor
    // in the daemon's log, the brokers' logs and files, the configs.
    const received = brokers.received
    expect(received.filter((m) => !m.topic.startsWith(`${central}/`))).toEqual([])
    expect(received.filter((m) => m.topic.includes(token) || m.payload.includes(token))).toEqual([])
    expect(readFileSync(daemon.logFile, "utf8")).not.toContain(token)
    expect(tokenLeaks(dir, token, { "broker logs": brokers.brokerLogs() })).toEqual([])
  }, 60_000)
})

describe("deploy/mosquitto with client certificates instead of passwords (the files' commented variant)", () => {
  let dir: string
  let brokers: Brokers

  beforeAll(async () => {
    dir = tempDir("mosquitto-bridge-cert")
    brokers = await startBrokers(dir, "certificate")
  }, 30_000)

  afterAll(async () => {
    await brokers?.release()
    rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it("the venue's certificate is its user name: its bridge/state reaches venues/<venue>/", async () => {
    expect(settings(brokers.bridgeConfig).filter((l) => l.startsWith("remote_"))).toEqual([`remote_clientid scorebridge-${venue}`])
    await brokers.seen("the venue's broker connected to the office", (m) => m.topic === `${central}/broker/connection` && m.payload === "1")
    const local = await connectAsync(brokers.venueUrl, { clientId: `bridge-cert-peer-${process.pid}`, clean: true, reconnectPeriod: 0 })
    try {
      await local.publishAsync("scorebridge/bridge/state", "online", { qos: 1, retain: true })
    } finally {
      await local.endAsync()
    }
    await brokers.seen("bridge/state online", (m) => m.topic === bridgeStateTopic && m.payload === "online")
    expect(await brokers.retained(bridgeStateTopic)).toBe("online")
  })
})
