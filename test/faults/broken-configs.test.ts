import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { stringify } from "yaml"
import { freePort } from "../../scripts/support/free-port.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { recordFigures, figures } from "./support/summary.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * Broken configs through the real process, `bin/scorebridge run --config FILE`, as systemd
 * starts it: each gives one message naming the file and the field, exit code 78 (systemd's
 * EX_CONFIG: RestartPreventExitStatus keeps it from restarting into the same error), and
 * nothing starts — no connection to the service or the broker, no log line (the status page
 * announces itself), no outbox file in the state directory. A valid config against the same listeners is the control: it does connect and
 * create its state, so the counters can see a start.
 */
const dir = tempDir("faults-configs")
const tokenEnv = "FAULTS_CONFIG_TOKEN"
const env = { [tokenEnv]: "config-token-never-shown", FAULTS_EMPTY_TOKEN: "  ", FAULTS_UNSET_TOKEN: undefined }

/** A TCP listener that counts connections: the stand-in service and broker. */
const counting = async () => {
  let connections = 0
  const server: Server = createServer((socket) => {
    connections++
    socket.destroy()
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  return { port, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let service: Awaited<ReturnType<typeof counting>>
let broker: Awaited<ReturnType<typeof counting>>
let statusPort = 0
beforeAll(async () => {
  service = await counting()
  broker = await counting()
  statusPort = await freePort()
})
afterAll(async () => {
  await service.close()
  await broker.close()
  rmSync(dir, { recursive: true, force: true })
})

type Doc = Record<string, any>
const valid = (stateDirectory: string): Doc => ({
  service: { baseUrl: `http://127.0.0.1:${service.port}`, token: { env: tokenEnv }, requestsPerSecond: 5 },
  stateDirectory,
  status: { listen: `127.0.0.1:${statusPort}` },
  mqtt: { url: `mqtt://127.0.0.1:${broker.port}`, clientId: "faults-configs" },
  buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/remote"] } }],
  places: [{
    key: "court-1",
    sport: "tennis",
    scoreboard: { protocol: "lines", serial: { path: "/dev/ttyFAULTS0", baudRate: 9600 }, options: { delimiter: ",", fields: ["home", "away", "period"] } },
    actions: [{ source: "remote", gesture: "single", do: "highlight", team: "home" }],
    teams: { home: { overlay: { imageSource: "https://cdn.example.com/home.png", heightPercentOfHeight: 10 } } }
  }]
})

interface Case {
  readonly name: string
  /** Edits the valid document, or replaces the file's text. */
  readonly change: ((doc: Doc) => void) | string
  /** The field the message must name ("" when only the file and a line can be named). */
  readonly field: string
}

const place = (doc: Doc) => doc["places"][0]
const cases: ReadonlyArray<Case> = [
  { name: "service missing", change: (d) => delete d["service"], field: "service" },
  { name: "baseUrl missing", change: (d) => delete d["service"].baseUrl, field: "service.baseUrl" },
  { name: "baseUrl not a URL", change: (d) => (d["service"].baseUrl = "not a url"), field: "service.baseUrl" },
  { name: "baseUrl ftp", change: (d) => (d["service"].baseUrl = "ftp://example.com"), field: "service.baseUrl" },
  { name: "token missing", change: (d) => delete d["service"].token, field: "service.token" },
  { name: "token env not set", change: (d) => (d["service"].token = { env: "FAULTS_UNSET_TOKEN" }), field: "service.token" },
  { name: "token env blank", change: (d) => (d["service"].token = { env: "FAULTS_EMPTY_TOKEN" }), field: "service.token" },
  { name: "token file missing", change: (d) => (d["service"].token = { file: join(dir, "no-such-token") }), field: "service.token" },
  { name: "rate as text", change: (d) => (d["service"].requestsPerSecond = "fast"), field: "service.requestsPerSecond" },
  { name: "negative rate", change: (d) => (d["service"].requestsPerSecond = -1), field: "service.requestsPerSecond" },
  { name: "fractional timeout", change: (d) => (d["service"].timeoutMs = 2.5), field: "service.timeoutMs" },
  { name: "places missing", change: (d) => delete d["places"], field: "places" },
  { name: "no places", change: (d) => (d["places"] = []), field: "places" },
  { name: "unknown top-level key", change: (d) => (d["plaecs"] = []), field: "plaecs" },
  { name: "place key missing", change: (d) => delete place(d).key, field: "places[0].key" },
  { name: "unknown sport", change: (d) => (place(d).sport = "quidditch"), field: "places[0].sport" },
  { name: "unknown protocol", change: (d) => (place(d).scoreboard.protocol = "daktronix"), field: "places[0].scoreboard.protocol" },
  { name: "relative serial path", change: (d) => (place(d).scoreboard.serial.path = "dev/ttyUSB0"), field: "places[0].scoreboard.serial.path" },
  { name: "baud as text", change: (d) => (place(d).scoreboard.serial.baudRate = "fast"), field: "places[0].scoreboard.serial.baudRate" },
  { name: "non-standard baud", change: (d) => (place(d).scoreboard.serial.baudRate = 12345), field: "places[0].scoreboard.serial.baudRate" },
  { name: "misspelt baudRate", change: (d) => (place(d).scoreboard.serial.baudrate = 9600), field: "places[0].scoreboard.serial.baudrate" },
  { name: "neither serial nor mqtt", change: (d) => delete place(d).scoreboard.serial, field: "places[0].scoreboard" },
  { name: "bad lines pattern", change: (d) => (place(d).scoreboard.options = { pattern: "^(?<home>\\d+" }), field: "places[0].scoreboard.options" },
  { name: "mqtt url http", change: (d) => (d["mqtt"].url = "http://127.0.0.1:1883"), field: "mqtt.url" },
  { name: "mqtt clientId with spaces", change: (d) => (d["mqtt"].clientId = "a b"), field: "mqtt.clientId" },
  { name: "button source without broker", change: (d) => delete d["mqtt"], field: "buttons[0]" },
  { name: "unknown button type", change: (d) => (d["buttons"][0].type = "telepathy"), field: "buttons[0].type" },
  { name: "action with unknown source", change: (d) => (place(d).actions[0].source = "nobody"), field: "places[0].actions[0].source" },
  { name: "unknown gesture", change: (d) => (place(d).actions[0].gesture = "quadruple"), field: "places[0].actions[0].gesture" },
  { name: "overlay too tall", change: (d) => (place(d).teams.home.overlay.heightPercentOfHeight = 500), field: "places[0].teams.home.overlay.heightPercentOfHeight" },
  { name: "overlay image not a URL", change: (d) => (place(d).teams.home.overlay.imageSource = "home.png"), field: "places[0].teams.home.overlay.imageSource" },
  { name: "status listen without port", change: (d) => (d["status"].listen = "localhost"), field: "status.listen" },
  { name: "log level", change: (d) => (d["log"] = { level: "loud" }), field: "log.level" },
  { name: "retention zero", change: (d) => (d["retention"] = { deliveredHours: 0 }), field: "retention.deliveredHours" },
  { name: "YAML syntax error", change: "service:\n  baseUrl: [unclosed\nplaces: []\n", field: "" },
  { name: "a list, not a mapping", change: "- service\n- places\n", field: "" }
]

interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = async (config: string, killAfterMs: number): Promise<Outcome> => {
  const daemon = startDaemon(config, { env })
  // A broken config must end the process by itself well before this.
  const timer = setTimeout(daemon.kill, killAfterMs)
  const { code } = await daemon.exited
  clearTimeout(timer)
  return { code, stdout: daemon.stdout(), stderr: daemon.stderr() }
}

describe("broken configs through the real process (bin/scorebridge run --config)", () => {
  it("the valid config starts: it connects to the service and broker and creates its state (the control)", async () => {
    const state = join(dir, "state-valid")
    mkdirSync(state)
    const file = join(dir, "valid.yaml")
    writeFileSync(file, stringify(valid(state)))
    const outcome = await run(file, 6_000)
    expect(outcome.stderr).toBe("")
    expect(existsSync(join(state, "outbox.sqlite")), "outbox of the valid config").toBe(true)
    expect(service.connections() + broker.connections(), outcome.stdout.slice(-2_000)).toBeGreaterThan(0)
  })

  it(`${cases.length} broken configs: exit 78, one message naming the file and the field, nothing started`, async () => {
    const before = { service: service.connections(), broker: broker.connections() }
    const failures: Array<string> = []
    const queue = cases.map((c, i) => ({ c, i }))
    const worker = async () => {
      // Bounded: each pass takes one case off the queue.
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const { c, i } = next
        const state = join(dir, `state-${i}`)
        mkdirSync(state)
        const file = join(dir, `broken-${i}.yaml`)
        if (typeof c.change === "string") writeFileSync(file, c.change)
        else {
          const doc = valid(state)
          c.change(doc)
          writeFileSync(file, stringify(doc))
        }
        const outcome = await run(file, 20_000)
        const problems = [
          outcome.code === 78 ? undefined : `exit code ${outcome.code}`,
          outcome.stderr.includes(file) ? undefined : "message does not name the file",
          outcome.stderr.includes(c.field) ? undefined : `message does not name ${c.field}`,
          outcome.stdout.trim() === "" ? undefined : `it logged (started?): ${outcome.stdout.slice(0, 200)}`,
          existsSync(join(state, "outbox.sqlite")) ? "outbox created" : undefined,
          outcome.stderr.includes(env[tokenEnv]!) ? "the token is in the message" : undefined
        ].filter((p) => p !== undefined)
        if (problems.length > 0) failures.push(`${c.name}: ${problems.join("; ")}\n  stderr: ${outcome.stderr.trim().slice(0, 600)}`)
      }
    }
    await Promise.all([worker(), worker(), worker()])
    const connections = { service: service.connections() - before.service, broker: broker.connections() - before.broker }
    recordFigures("broken-configs", {
      ...figures(),
      runs: cases.length,
      faultsInjected: cases.length,
      notes: `${cases.length - failures.length} of ${cases.length} refused with exit 78 naming file and field; connections ${JSON.stringify(connections)}`
    })
    expect(failures).toEqual([])
    expect(connections, "connections to the service and broker while refusing").toEqual({ service: 0, broker: 0 })
    expect(cases.length).toBeGreaterThanOrEqual(30)
  }, 180_000)
})
