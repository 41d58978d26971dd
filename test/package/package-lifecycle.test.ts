import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { outboxSchemaField } from "../../src/upgrade/outbox-compatibility.ts"
import { writeConfig, type DaemonConfig } from "../../scripts/support/daemon-config.ts"
import { builtPackage, nextVersion, packageBuildTimeoutMs, packageVersion } from "../support/debian-packages.ts"
import { type DpkgRoot, makeDpkgRoot } from "../support/dpkg-root.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type PtyPair, startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { setupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { tennisOnSerial } from "../systemd/run-config.ts"
import { type ScorebridgeProcess as DaemonProcess, startDaemon, startScorebridge } from "../../scripts/support/scorebridge-process.ts"

/**
 * The amd64 package as a venue lives with it, in a throw-away root (`dpkg --root`, maintainer
 * scripts unchrooted with DPKG_ROOT): first install, the token set, the installed `scorebridge`
 * (its own Node, not this machine's) delivering a court's scores from a console on a pty to the
 * simulator, then upgrade → downgrade → upgrade with entries pending throughout, remove and purge.
 * Config, token and outbox are checked after each step. systemd is not PID 1 here: the daemon is
 * started the way the unit starts it (its credential and state directories in the environment).
 */

const token = "tok-pkg-7d41b0e3"
const place = "court-1"
const seed = { organizations: [{ key: "package-org", name: "Package tests", tokens: [token], places: [{ key: place, name: "Court 1", sport: "tennis" }] }] }
const res = resources()

let current: string
let next: string
let venue: DpkgRoot
let dir: string
let board: PtyPair
let sim: Awaited<ReturnType<typeof startSimulator>>
let control: SimulatorControl
let statusPort: number

beforeAll(async () => {
  current = await builtPackage("amd64")
  next = await builtPackage("amd64", { version: nextVersion, compression: "gzip" })
  dir = tempDir("package-lifecycle", res)
  venue = makeDpkgRoot(join(dir, "root"), { hostPackages: ["libc6", "libstdc++6", "libgcc-s1"] })
  sim = await startSimulator({ port: 0, requestsPerSecond: 50, burst: 5, seed })
  control = new SimulatorControl(sim.url)
  board = await startPtyPair(dir, "board")
  statusPort = await freePort()
}, packageBuildTimeoutMs)
afterAll(async () => {
  await board?.stop()
  await sim?.close()
  res.release()
})

const at = (path: string) => join(venue.root, path)
const command = () => at("usr/bin/scorebridge")
const configFile = () => at("etc/scorebridge/config.yaml")
const tokenFile = () => at("etc/scorebridge/credentials/token")
const stateDirectory = () => at("var/lib/scorebridge")
const outbox = () => join(stateDirectory(), "outbox.sqlite")
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

// What systemd's unit hands the daemon: the credential directory (LoadCredential=) and the state directory.
const unitEnvironment = () => ({
  CREDENTIALS_DIRECTORY: at("etc/scorebridge/credentials"),
  STATE_DIRECTORY: stateDirectory(),
  // No Node on the PATH at all: the package's own must be the one that runs.
  PATH: "/usr/sbin:/usr/bin:/sbin:/bin"
})

const status = async (): Promise<StatusSnapshot["places"][number] | undefined> => {
  try {
    const snapshot = (await (await fetch(`http://127.0.0.1:${statusPort}/status.json`)).json()) as StatusSnapshot
    return snapshot.places.find((p) => p.key === place)
  } catch {
    return undefined
  }
}

const startInstalled = async (): Promise<DaemonProcess> => {
  const daemon = startDaemon(configFile(), { env: unitEnvironment(), command: command() })
  res.defer(() => daemon.kill())
  await eventually("the installed daemon's status page", status, { timeoutMs: 15_000, intervalMs: 50 }).catch((error: Error) => {
    throw new Error(`${error.message}; stderr: ${daemon.stderr()}; log: ${daemon.logs().slice(-8).map((l) => l.msg).join(" | ")}`)
  })
  return daemon
}

const stop = async (daemon: DaemonProcess) => {
  daemon.process.kill("SIGTERM")
  expect((await daemon.exited).code, daemon.stderr()).toBe(0)
}

const received = async (eventKey: string) => (await control.state()).events.find((e) => e.key === eventKey)?.scoreStream.length ?? 0

const points = ["15-0", "30-0", "40-0", "40-15", "40-30", "15-0", "30-0", "30-15", "30-30", "40-30", "15-0", "15-15"]
let written = 0
/** A new point on the board; the court's first game, then the next ones (sets column "N-0"). */
const point = () => {
  const n = written++
  writeToPty(board.writerPath, `00:${String(n).padStart(2, "0")} ${points[n]} ${Math.floor(n / 5)}-0\n`)
}

const snapshotOfVenueFiles = () => ({ config: readFileSync(configFile(), "utf8"), token: readFileSync(tokenFile(), "utf8") })

describe("the amd64 package in a throw-away root", () => {
  let eventKey: string
  let venueFiles: ReturnType<typeof snapshotOfVenueFiles>

  it("installs offline: the program, the unit enabled, a config from an example, a root-only credentials directory; no token yet", () => {
    const started = Date.now()
    const said = venue.dpkg(["-i", current])
    console.log(`install: ${Date.now() - started} ms`)
    expect(venue.installed("scorebridge")).toBe(packageVersion)
    expect(said).toContain("no API token yet: sudo scorebridge-set-token")
    expect(readFileSync(configFile(), "utf8")).toBe(readFileSync(at("usr/share/scorebridge/examples/daktronics-basketball-usb.yaml"), "utf8"))
    expect(mode(at("etc/scorebridge/credentials"))).toBe("700")
    expect(existsSync(tokenFile())).toBe(false)
    // deb-systemd-helper enabled it in the root, as it would on a first install on the mini-PC.
    expect(readlinkSync(at("etc/systemd/system/multi-user.target.wants/scorebridge.service"))).toBe("/lib/systemd/system/scorebridge.service")
    expect(readlinkSync(command())).toBe("../lib/scorebridge/bin/scorebridge")
  })

  it("runs the demo, offline, as the technician's first check", () => {
    // Its own simulator and a simulated board, on loopback; no Node on the PATH.
    const demo = spawnSync(command(), ["demo", "--points", "2", "--point-every-ms", "100"], {
      cwd: dir, encoding: "utf8", env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: dir }, timeout: 60_000
    })
    expect(demo.status, demo.stderr).toBe(0)
    expect(demo.stdout).toMatch(/The simulator accepted (\d+) of \1 score entries/u)
  })

  it("serves the setup page on its own Node, with no Node on the PATH (the technician's second step)", async () => {
    // Started as root outside its unit, setup serves as the config's owner and refuses root's
    // (src/setup/privilege/checkout-drop.ts): nobody holds the config meanwhile.
    const handOver = (uid: number) => [at("etc/scorebridge"), configFile()].forEach((path) => chownSync(path, uid, uid))
    chmodSync(dir, 0o755)
    handOver(setupUser)
    const port = await freePort()
    const setup = startScorebridge(["setup", "--config", configFile(), "--port", String(port)], {
      command: command(),
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: dir, SCOREBRIDGE_SETUP_SYSLOG: "off" }
    })
    res.defer(() => setup.kill())
    await eventually("the setup code", async () => (/^setup code: \S+$/mu.test(setup.stdout()) ? true : undefined), { timeoutMs: 15_000 })
    expect(readlinkSync(`/proc/${setup.process.pid}/exe`), "the package's Node runs it").toBe(at("usr/lib/scorebridge/runtime/node"))
    const login = await fetch(`http://127.0.0.1:${port}/`)
    expect(login.status).toBe(200)
    expect(await login.text()).toContain('name="code"')
    expect((await fetch(`http://127.0.0.1:${port}/api/config`)).status, "nothing but the login without a session").toBe(401)
    // The installed package's config is root's again for the steps after this one.
    handOver(0)
  })

  it("installs again over itself without changing what the venue has (idempotent scripts)", () => {
    writeFileSync(configFile(), "# edited for this venue\n")
    venue.dpkg(["-i", current])
    expect(venue.installed("scorebridge")).toBe(packageVersion)
    expect(readFileSync(configFile(), "utf8")).toBe("# edited for this venue\n")
    expect(mode(at("etc/scorebridge/credentials"))).toBe("700")
  })

  it("takes the token on stdin, never on the command line, and never prints it", () => {
    const set = spawnSync(at("usr/sbin/scorebridge-set-token"), ["--root", venue.root], { input: `  ${token}\n`, encoding: "utf8" })
    expect(set.status, set.stderr).toBe(0)
    expect(set.stdout + set.stderr).not.toContain(token)
    expect(readFileSync(tokenFile(), "utf8")).toBe(`${token}\n`)
    expect(mode(tokenFile())).toBe("600")
    const refused = spawnSync(at("usr/sbin/scorebridge-set-token"), ["--root", venue.root, token], { encoding: "utf8" })
    expect(refused.status, "a token as an argument is refused").not.toBe(0)
    expect(refused.stderr).not.toContain(token)
  })

  it("runs on its own Node against the simulator with a console on a pty, and delivers", async () => {
    const version = execFileSync(command(), ["--version"], { encoding: "utf8", env: unitEnvironment() })
    expect(version.trim()).toBe(`scorebridge v${packageVersion}`)
    // The technician's edit: the court's console on its serial adapter, the service, the token as the unit's credential.
    const technician: DaemonConfig = {
      service: { baseUrl: sim.url, token: { credential: "token" }, requestsPerSecond: 20, timeoutMs: 2_000 },
      status: { listen: `127.0.0.1:${statusPort}` },
      places: [tennisOnSerial(place, board.daemonPath)]
    }
    writeConfig(configFile(), technician)
    mkdirSync(stateDirectory(), { recursive: true })
    eventKey = (await control.startEvent(place, { homeTeam: "A", awayTeam: "B" })).eventKey

    const daemon = await startInstalled()
    expect(readlinkSync(`/proc/${daemon.process.pid}/exe`), "the package's Node runs the daemon").toBe(at("usr/lib/scorebridge/runtime/node"))
    point()
    point()
    await eventually("two entries at the service", async () => ((await received(eventKey)) >= 2 ? true : undefined), { timeoutMs: 10_000 })
    // The service goes away: what the board shows next waits in the outbox, across every step below.
    await control.injectFault({ kind: "status", status: 503, durationMs: 600_000 })
    point()
    point()
    await eventually("two entries pending", async () => ((await status())?.queue.score === 2 ? true : undefined), { timeoutMs: 10_000 })
    await stop(daemon)
    venueFiles = snapshotOfVenueFiles()
  })

  it("upgrades: the venue's config, token and pending entries stay; the replaced version is kept for a rollback", async () => {
    const started = Date.now()
    const said = venue.dpkg(["-i", next])
    console.log(`upgrade: ${Date.now() - started} ms`)
    expect(venue.installed("scorebridge")).toBe(nextVersion)
    expect(snapshotOfVenueFiles()).toEqual(venueFiles)
    expect(readdirSync(at("var/lib/scorebridge-package/previous")), said).toEqual([`scorebridge_${packageVersion}_amd64.deb`])
    // The kept copy is the installed version as dpkg knew it: its files, and its word on the outbox it reads.
    const kept = at(`var/lib/scorebridge-package/previous/scorebridge_${packageVersion}_amd64.deb`)
    expect(execFileSync("dpkg-deb", ["--field", kept, "Version", outboxSchemaField], { encoding: "utf8" })).toBe(`Version: ${packageVersion}\n${outboxSchemaField}: ${schemaVersion}\n`)
    expect(execFileSync("dpkg-deb", ["--contents", kept], { encoding: "utf8" })).toContain("./usr/lib/scorebridge/runtime/node")
    expect(execFileSync(command(), ["--version"], { encoding: "utf8" }).trim()).toBe(`scorebridge v${nextVersion}`)
    const daemon = await startInstalled()
    point()
    await eventually("three entries pending with the new version", async () => ((await status())?.queue.score === 3 ? true : undefined), { timeoutMs: 10_000 })
    await stop(daemon)
  })

  it("downgrades to the previous version, which delivers every entry the newer one left pending", async () => {
    venue.dpkg(["-i", current])
    expect(venue.installed("scorebridge")).toBe(packageVersion)
    expect(snapshotOfVenueFiles()).toEqual(venueFiles)
    expect(existsSync(outbox())).toBe(true)
    await control.clearFaults()
    const daemon = await startInstalled()
    await eventually("all five entries at the service", async () => ((await received(eventKey)) === 5 ? true : undefined), { timeoutMs: 15_000 })
    point()
    await eventually("the sixth, from the older version", async () => ((await received(eventKey)) === 6 ? true : undefined), { timeoutMs: 10_000 })
    await stop(daemon)
    const stream = (await control.state()).events.find((e) => e.key === eventKey)!.scoreStream
    // Two points written back to back may share a stamp (one read); each board state is there once.
    expect(new Set(stream.map((e) => JSON.stringify(e["scoreValue"]))).size, `none doubled: ${JSON.stringify(stream)}`).toBe(6)
  })

  it("upgrades again, then remove keeps config, token and outbox, and purge deletes them", () => {
    venue.dpkg(["-i", next])
    expect(venue.installed("scorebridge")).toBe(nextVersion)
    expect(snapshotOfVenueFiles()).toEqual(venueFiles)

    venue.dpkg(["--remove", "scorebridge"])
    expect(venue.installed("scorebridge")).toBeUndefined()
    expect(existsSync(at("usr/lib/scorebridge"))).toBe(false)
    expect(existsSync(command())).toBe(false)
    expect(snapshotOfVenueFiles()).toEqual(venueFiles)
    expect(existsSync(outbox())).toBe(true)

    venue.dpkg(["--purge", "scorebridge"])
    for (const gone of ["etc/scorebridge", "var/lib/scorebridge", "var/lib/scorebridge-package", "etc/systemd/system/multi-user.target.wants/scorebridge.service"]) {
      expect(existsSync(at(gone)), gone).toBe(false)
    }
  })
})
