import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { createSocket } from "node:dgram"
import { createServer } from "node:net"
import { daemonConfig, type PlaceConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { startConsoleServer, stramatelFrames } from "./network-console.ts"
import { runCli } from "./support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const token = "venue-token-7f3a9c1e5d"
const seed = {
  organizations: [{
    key: "venue-org",
    name: "Venue",
    tokens: [token],
    places: [{ key: "court-1", name: "Court 1", sport: "tennis" }, { key: "court-2", name: "Court 2", sport: "volleyball" }]
  }]
}

const scratch = tempDir("doctor")
const state = join(scratch, "state")
mkdirSync(state)

let simulator: RunningSimulator
let control: SimulatorControl
let broker: Mosquitto
let pty: PtyPair

beforeAll(async () => {
  simulator = await startSimulator({ seed, requestsPerSecond: 50, burst: 50 })
  control = new SimulatorControl(simulator.url)
  broker = await startMosquitto(scratch)
  pty = await startPtyPair(scratch)
})

afterAll(async () => {
  await pty.stop()
  await broker.stop()
  await simulator.close()
  rmSync(scratch, { recursive: true, force: true })
})

beforeEach(async () => {
  await control.clearRequests()
})

interface Setup {
  readonly companyKey?: string | null
  readonly serialPath?: string
  readonly brokerUrl?: string
  readonly court2Key?: string
  readonly court2Sport?: PlaceConfig["sport"]
  readonly stateDirectory?: string
  /** The scoreboard's protocol and link, instead of the serial and MQTT ones. */
  readonly court1Scoreboard?: Scoreboard
  readonly court2Scoreboard?: Scoreboard
}

type Scoreboard = PlaceConfig["scoreboard"]

let configs = 0
const configFile = (setup: Setup = {}): string => {
  const companyKey = setup.companyKey === undefined ? "venue-org" : setup.companyKey
  return writeConfig(join(scratch, `config-${++configs}.yaml`), daemonConfig({
    service: { baseUrl: simulator.url, token: { env: "SB_DOCTOR_TOKEN" }, ...(companyKey === null ? {} : { companyKey }) },
    stateDirectory: setup.stateDirectory ?? state,
    mqtt: { url: setup.brokerUrl ?? broker.url },
    places: [
      {
        key: "court-1",
        sport: "tennis",
        scoreboard: setup.court1Scoreboard ?? { protocol: "daktronics-rtd", serial: { path: setup.serialPath ?? pty.daemonPath } }
      },
      {
        key: setup.court2Key ?? "court-2",
        sport: setup.court2Sport ?? "volleyball",
        scoreboard: setup.court2Scoreboard ?? {
          protocol: "json",
          mqtt: { topics: ["venue/court-2/score"] },
          options: { framing: "message", fields: { home: "home", away: "away" } }
        }
      }
    ]
  }))
}

const doctor = (config: string, withToken = token) => runCli("doctor", ["--config", config], { SB_DOCTOR_TOKEN: withToken })

const lineOf = (stdout: string, start: string): string | undefined => stdout.split("\n").find((line) => line.includes(start))

/** The `flag` line containing `what`, with the advice line right after it. */
const flagged = (flag: "FAIL" | "WARN") => (stdout: string, what: string): { readonly line: string; readonly advice: string } => {
  const lines = stdout.split("\n")
  const index = lines.findIndex((line) => line.startsWith(`[${flag}]`) && line.includes(what))
  expect(index, `a ${flag} line about ${what} in:\n${stdout}`).toBeGreaterThanOrEqual(0)
  return { line: lines[index]!, advice: lines[index + 1] ?? "" }
}
const failure = flagged("FAIL")
const warning = flagged("WARN")

/** A Stramatel scoreboard reached over the network. */
const stramatelOver = (link: Pick<NonNullable<Scoreboard>, "tcp" | "udp">): Scoreboard => ({ protocol: "stramatel-452m", ...link })

describe("scorebridge doctor (process)", () => {
  it("passes every check against the service, a pty and a broker, spacing its requests", async () => {
    const run = await doctor(configFile())
    expect(run.stdout).not.toMatch(/\[FAIL\]/u)
    expect(run.code).toBe(0)
    for (const check of ["config ", "token: accepted", "clock: within", "place court-1: exists", "place court-2: exists", `place court-1 scoreboard ${pty.daemonPath}: serial device`, `MQTT broker ${broker.url}: connected`, `state directory ${state}: writable`]) {
      expect(lineOf(run.stdout, check), check).toMatch(/^\[ OK \]/u)
    }
    expect(run.stdout).toMatch(/All 8 checks passed\./u)
    const requests = await control.requests()
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /public/sports", "GET /public/places"])
    // A second apart, so doctor never takes the running daemon's request budget.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(900)
    expect(`${run.stdout}${run.stderr}`).not.toContain(token)
  })

  it("fails the token check on a 401 with advice, skips the places, and never shows the token", async () => {
    const wrong = "wrong-token-0123456789abcdef"
    const run = await doctor(configFile(), wrong)
    expect(run.code).toBe(1)
    const { line, advice } = failure(run.stdout, "token:")
    expect(line).toMatch(/401/u)
    expect(advice).toMatch(/what to do: .*current API token/u)
    expect(lineOf(run.stdout, "places:")).toMatch(/^\[SKIP\]/u)
    expect(lineOf(run.stdout, "MQTT broker")).toMatch(/^\[ OK \]/u)
    expect(`${run.stdout}${run.stderr}`).not.toContain(wrong)
    expect(await control.requests({ pathPrefix: "/public/places" })).toEqual([])
  })

  it("fails a serial path that does not exist", async () => {
    const missing = join(scratch, "no-such-adapter")
    const run = await doctor(configFile({ serialPath: missing }))
    expect(run.code).toBe(1)
    const { line, advice } = failure(run.stdout, missing)
    expect(line).toMatch(/no such device/u)
    expect(advice).toMatch(/\/dev\/serial\/by-id/u)
    expect(run.stdout).toMatch(/1 check\(s\) failed/u)
  })

  it("fails a serial path that is not a device", async () => {
    const file = join(scratch, "not-a-device")
    writeFileSync(file, "")
    const run = await doctor(configFile({ serialPath: file }))
    expect(run.code).toBe(1)
    expect(failure(run.stdout, file).line).toMatch(/not a serial device \(a regular file\)/u)
  })

  it("fails when the broker is stopped", async () => {
    await broker.stop()
    try {
      const run = await doctor(configFile())
      expect(run.code).toBe(1)
      const { line, advice } = failure(run.stdout, "MQTT broker")
      expect(line).toMatch(/ECONNREFUSED/u)
      expect(advice).toMatch(/is the broker running/u)
    } finally {
      await broker.start()
    }
  })

  it("fails a place the organization does not have, listing the ones it has", async () => {
    const run = await doctor(configFile({ court2Key: "court-9" }))
    expect(run.code).toBe(1)
    expect(failure(run.stdout, "place court-9").line).toMatch(/not among the organization's places \(court-1, court-2\)/u)
    expect(lineOf(run.stdout, "place court-1:")).toMatch(/^\[ OK \]/u)
  })

  it("fails a place whose sport differs from the service's", async () => {
    const run = await doctor(configFile({ court2Sport: "basketball" }))
    expect(run.code).toBe(1)
    const { line, advice } = failure(run.stdout, "place court-2")
    expect(line).toMatch(/configured as basketball, but the service has it as volleyball/u)
    expect(advice).toMatch(/sport: volleyball/u)
  })

  it("fails a companyKey of another organization", async () => {
    const run = await doctor(configFile({ companyKey: "other-org" }))
    expect(run.code).toBe(1)
    expect(failure(run.stdout, "places:").advice).toMatch(/check service\.companyKey \("other-org"\)/u)
  })

  it("skips the place lookup without a companyKey, saying why, and still passes", async () => {
    const run = await doctor(configFile({ companyKey: null }))
    expect(run.code).toBe(0)
    expect(lineOf(run.stdout, "places:")).toMatch(/^\[SKIP\] places: not looked up: service\.companyKey is not set/u)
    expect(await control.requests({ pathPrefix: "/public/places" })).toEqual([])
  })

  it("fails a state directory that does not exist", async () => {
    const missing = join(scratch, "no-state")
    const run = await doctor(configFile({ stateDirectory: missing }))
    expect(run.code).toBe(1)
    expect(failure(run.stdout, "state directory").line).toMatch(/does not exist/u)
  })

  it("exits 78 with the report when the config does not load", async () => {
    const broken = join(scratch, "broken.yaml")
    writeFileSync(broken, "service:\n  baseUrl: ftp://nowhere\nplaces: []\n")
    const run = await doctor(broken)
    expect(run.code).toBe(78)
    expect(run.stdout).toMatch(/^\[FAIL\] config .*broken\.yaml: invalid/u)
    expect(run.stdout).toMatch(/broken\.yaml:\d+:\d+ /u)
    expect(await control.requests()).toEqual([])
  })

  it("fails a tcp connect target that refuses, and warns of a listen port in use (most often the running daemon's)", async () => {
    const refusing = await freePort()
    const held = createServer()
    const heldPort = await freePort()
    await new Promise<void>((resolve) => held.listen({ host: "127.0.0.1", port: heldPort }, () => resolve()))
    try {
      const run = await doctor(configFile({
        court1Scoreboard: stramatelOver({ tcp: { connect: `127.0.0.1:${refusing}` } }),
        court2Scoreboard: stramatelOver({ tcp: { listen: `127.0.0.1:${heldPort}` } })
      }))
      expect(run.code).toBe(1)
      const { line, advice } = failure(run.stdout, "place court-1 scoreboard tcp connect")
      expect(line).toBe(`[FAIL] place court-1 scoreboard tcp connect 127.0.0.1:${refusing}: 127.0.0.1:${refusing} refused the connection: nothing listens on that port (device off, wrong port, or a converter not in TCP server mode?)`)
      expect(advice).toMatch(/what to do: check that the console or converter is on .*places\[0\]\.scoreboard\.tcp\.connect.*TCP server mode/u)
      const inUse = warning(run.stdout, "place court-2 scoreboard tcp listen")
      expect(inUse.line).toBe(`[WARN] place court-2 scoreboard tcp listen 127.0.0.1:${heldPort}: in use (the daemon itself if it is running: check \`systemctl status scorebridge\`)`)
      expect(inUse.advice).toContain(`sudo ss -ltnp 'sport = :${heldPort}'`)
      expect(run.stdout).toMatch(/1 check\(s\) failed, 1 warning\(s\)/u)
    } finally {
      await new Promise((resolve) => held.close(resolve))
    }
  })

  it("counts the bytes a connect target sends in 2 s, and warns of one that accepts but sends nothing", async () => {
    const sending = await startConsoleServer(stramatelFrames(20))
    const silent = await startConsoleServer(undefined)
    try {
      const run = await doctor(configFile({
        court1Scoreboard: stramatelOver({ tcp: { connect: `127.0.0.1:${sending.port}` } }),
        court2Scoreboard: stramatelOver({ tcp: { connect: `127.0.0.1:${silent.port}` } })
      }))
      expect(run.stdout).not.toMatch(/\[FAIL\]/u)
      expect(run.code).toBe(0)
      const connected = lineOf(run.stdout, "place court-1 scoreboard tcp connect")!
      const bytes = Number(connected.match(new RegExp(`^\\[ OK \\] place court-1 scoreboard tcp connect 127\\.0\\.0\\.1:${sending.port}: connected, (\\d+) bytes in 2 s$`, "u"))?.[1])
      // Sent 54 bytes every 10 ms: far more than a frame, whatever the timer's slack.
      expect(bytes).toBeGreaterThan(1000)
      const quiet = warning(run.stdout, "place court-2 scoreboard tcp connect")
      expect(quiet.line).toBe(`[WARN] place court-2 scoreboard tcp connect 127.0.0.1:${silent.port}: connected, but no bytes in 2 s`)
      expect(quiet.advice).toMatch(/the console side is silent or its line settings are wrong: .*converter's serial settings \(speed, 8N1/u)
      expect(run.stdout).toMatch(/All \d+ checks passed, 1 warning\(s\)\./u)
      expect([sending.accepted(), silent.accepted()]).toEqual([1, 1])
    } finally {
      await sending.close()
      await silent.close()
    }
  })

  it("passes a free listen port, warns of a UDP port in use, and lets both go", async () => {
    const udpPort = await freePort()
    const held = createSocket("udp4")
    await new Promise<void>((resolve) => held.bind(udpPort, "127.0.0.1", () => resolve()))
    const tcpPort = await freePort()
    try {
      const run = await doctor(configFile({
        court1Scoreboard: stramatelOver({ udp: { listen: `127.0.0.1:${udpPort}` } }),
        court2Scoreboard: stramatelOver({ tcp: { listen: `127.0.0.1:${tcpPort}` } })
      }))
      expect(run.code).toBe(0)
      const inUse = warning(run.stdout, "place court-1 scoreboard udp listen")
      expect(inUse.line).toMatch(new RegExp(`^\\[WARN\\] place court-1 scoreboard udp listen 127\\.0\\.0\\.1:${udpPort}: in use \\(the daemon itself if it is running`, "u"))
      expect(inUse.advice).toContain(`sudo ss -lunp 'sport = :${udpPort}'`)
      expect(lineOf(run.stdout, "place court-2 scoreboard tcp listen")).toBe(`[ OK ] place court-2 scoreboard tcp listen 127.0.0.1:${tcpPort}: free to listen on`)
    } finally {
      await new Promise<void>((resolve) => held.close(() => resolve()))
    }
    // Doctor let the port go: the daemon can bind it.
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen({ host: "127.0.0.1", port: tcpPort, exclusive: true }, () => resolve())
    })
    await new Promise((resolve) => server.close(resolve))
  })
})
