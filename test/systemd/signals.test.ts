import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { type RunningSimulator, startSimulator } from "../../simulator/index.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type DaemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { outboxStates } from "../support/outbox-file.ts"
import { runConfig, tennisOnSerial } from "./run-config.ts"
import { type ScorebridgeProcess as DaemonProcess, startDaemon } from "../../scripts/support/scorebridge-process.ts"

/**
 * The daemon as a real process (what systemd runs) against the simulator on loopback, with
 * socat ptys as scoreboards: SIGHUP reloads, SIGTERM stops within 5 s, nothing queued is lost
 * or sent twice.
 */

const token = "systemd-token"
const env = { SCOREBRIDGE_TOKEN: token }
const seed = {
  organizations: [{
    key: "systemd-org",
    name: "systemd tests",
    tokens: [token],
    places: [{ key: "court-1", name: "Court 1", sport: "tennis" }, { key: "court-2", name: "Court 2", sport: "tennis" }]
  }]
}

/** Distinct boards, each a new score: one entry per frame. */
const frames = ["15-0", "30-0", "40-0", "40-15", "40-30", "15-0 1-0"].map((points, i) => {
  const [score, games = "0-0"] = points.split(" ")
  return `00:0${i} ${score} ${games}\n`
})

const res = resources()
afterEach(() => res.release())

interface Setup {
  readonly dir: string
  readonly sim: RunningSimulator
  readonly control: SimulatorControl
  readonly state: string
  readonly config: string
  readonly statusPort: number
}

const setup = async (): Promise<Setup> => {
  const dir = tempDir("systemd", res)
  const sim = await startSimulator({ port: 0, requestsPerSecond: 50, burst: 5, seed })
  res.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)
  await control.startEvent("court-1", { homeTeam: "A", awayTeam: "B", name: "court 1 match" })
  await control.startEvent("court-2", { homeTeam: "C", awayTeam: "D", name: "court 2 match" })
  const state = join(dir, "state")
  mkdirSync(state)
  return { dir, sim, control, state, config: join(dir, "config.yaml"), statusPort: await freePort() }
}

const configure = (s: Setup, sections: Pick<DaemonConfig, "places" | "buttons"> & { readonly timeoutMs?: number }) =>
  writeConfig(s.config, runConfig({ baseUrl: s.sim.url, stateDirectory: s.state, statusPort: s.statusPort, ...sections }))

const launch = (s: Setup): DaemonProcess => {
  const daemon = startDaemon(s.config, { env })
  res.defer(() => daemon.kill())
  return daemon
}

/** Accepted score posts (place or event endpoint): each entry must appear exactly once. */
const acceptedScores = async (control: SimulatorControl) =>
  (await control.requests({ method: "POST", status: 200 })).filter((r) => r.path.endsWith("/score"))

describe("scorebridge run under signals (a real process)", () => {
  it("SIGHUP with a second place: the new place works and entries queued before are delivered exactly once", async () => {
    const s = await setup()
    const court1 = await startPtyPair(s.dir, "court-1")
    res.defer(() => court1.stop())
    const court2 = await startPtyPair(s.dir, "court-2")
    res.defer(() => court2.stop())
    configure(s, { places: [tennisOnSerial("court-1", court1.daemonPath)] })
    // The service is down: every entry waits in the outbox.
    await s.control.injectFault({ kind: "status", status: 503, durationMs: 60_000 })
    const daemon = launch(s)
    await daemon.waitForLog(/serial port connected/)
    for (const frame of frames.slice(0, 3)) writeToPty(court1.writerPath, frame)
    await eventually("3 entries pending for court-1", () => outboxStates(s.state, "court-1")["pending"] === 3 ? true : undefined)

    configure(s, { places: [tennisOnSerial("court-1", court1.daemonPath), tennisOnSerial("court-2", court2.daemonPath)] })
    const before = daemon.logs().length
    daemon.process.kill("SIGHUP")
    await daemon.waitForLog(/reloaded .*: 2 place/, { from: before })
    await s.control.clearFaults()
    await eventually("both serial ports open after the reload", () =>
      daemon.logs().slice(before).filter((l) => /serial port connected/.test(l.msg)).length >= 2 ? true : undefined)
    writeToPty(court2.writerPath, frames[0]!)
    writeToPty(court1.writerPath, frames[3]!)

    await eventually("court-1's 4 entries and court-2's one delivered", () => {
      const one = outboxStates(s.state, "court-1")
      const two = outboxStates(s.state, "court-2")
      return one["delivered"] === 4 && two["delivered"] === 1 ? true : undefined
    }, { timeoutMs: 15_000 })
    const scores = await acceptedScores(s.control)
    // Exactly once: as many accepted posts as entries, none of them a repeat.
    expect(scores.length).toBe(5)
    expect(new Set(scores.map((r) => JSON.stringify(r.body))).size).toBe(5)
    expect(daemon.process.exitCode).toBeNull()
  }, 40_000)

  it("SIGHUP with a broken config: keeps running the old config and logs why", async () => {
    const s = await setup()
    const court1 = await startPtyPair(s.dir, "court-1")
    res.defer(() => court1.stop())
    configure(s, { places: [tennisOnSerial("court-1", court1.daemonPath)] })
    const daemon = launch(s)
    await daemon.waitForLog(/serial port connected/)
    writeFileSync(s.config, "service:\n  baseUrl: http://127.0.0.1:9\nplaces: nope\n")
    const before = daemon.logs().length
    daemon.process.kill("SIGHUP")
    const failure = await daemon.waitForLog(/reload of .* failed, still running the previous config/, { from: before })
    expect(failure.msg).toContain("places")
    expect(failure.msg).toContain("service.token")
    // Still the old daemon: its port stays open (no reconnect) and a new score goes through.
    writeToPty(court1.writerPath, frames[0]!)
    await eventually("the score after the failed reload delivered", () =>
      outboxStates(s.state, "court-1")["delivered"] === 1 ? true : undefined, { timeoutMs: 10_000 })
    expect(daemon.logs().filter((l) => /serial port connected/.test(l.msg))).toHaveLength(1)
    expect(daemon.process.exitCode).toBeNull()
  }, 30_000)

  it("SIGTERM with a backlog and a hanging request: exits 0 within 5 s; after a restart the backlog goes out exactly once", async () => {
    const s = await setup()
    const court1 = await startPtyPair(s.dir, "court-1")
    res.defer(() => court1.stop())
    // A 10 s request timeout: the hanging request must not hold the shutdown.
    configure(s, { places: [tennisOnSerial("court-1", court1.daemonPath)], timeoutMs: 10_000 })
    await s.control.injectFault({ kind: "hang", durationMs: 60_000 })
    const daemon = launch(s)
    await daemon.waitForLog(/serial port connected/)
    for (const frame of frames.slice(0, 4)) writeToPty(court1.writerPath, frame)
    await eventually("4 entries pending", () => outboxStates(s.state, "court-1")["pending"] === 4 ? true : undefined)
    await eventually("a score request hanging in the simulator", async () =>
      (await s.control.requests({ method: "POST" })).length > 0 ? true : undefined)

    const sentAt = Date.now()
    daemon.process.kill("SIGTERM")
    const exit = await daemon.exited
    const took = exit.at - sentAt
    expect({ code: exit.code, signal: exit.signal }, `stderr: ${daemon.stderr()}`).toEqual({ code: 0, signal: null })
    expect(took).toBeLessThan(5_000)
    expect(daemon.stderr()).not.toContain("did not finish")
    console.log(`SIGTERM to exit with a backlog of 4 and a hanging request: ${took} ms`)
    expect(outboxStates(s.state, "court-1")).toEqual({ pending: 4 })

    await s.control.clearFaults()
    await s.control.clearRequests()
    const again = launch(s)
    await eventually("the backlog delivered after the restart", () =>
      outboxStates(s.state, "court-1")["delivered"] === 4 ? true : undefined, { timeoutMs: 15_000 })
    const scores = await acceptedScores(s.control)
    expect(scores).toHaveLength(4)
    expect(new Set(scores.map((r) => JSON.stringify(r.body))).size).toBe(4)
    expect(again.process.exitCode).toBeNull()
  }, 40_000)

  it("SIGTERM with a button read blocked on an idle input device: still ends within 5 s", async () => {
    const s = await setup()
    // A FIFO with an idle writer stands in for a pedal nobody presses: the daemon's read blocks
    // in libuv's threadpool, which process.exit would wait for forever.
    const pedal = join(s.dir, "pedal")
    expect(spawnSync("mkfifo", [pedal]).status).toBe(0)
    const writer = spawn("sh", ["-c", `exec sleep 60 > ${pedal}`], { stdio: "ignore" })
    res.defer(() => void writer.kill("SIGKILL"))
    configure(s, {
      buttons: [{ name: "pedal", type: "input-event", device: pedal, options: { keys: ["KEY_A"] } }],
      places: [{ key: "court-1", sport: "tennis", actions: [{ source: "pedal", button: 30, gesture: "single", do: "highlight", team: "home" }] }]
    })
    const daemon = launch(s)
    await daemon.waitForLog(/connected/)
    const sentAt = Date.now()
    daemon.process.kill("SIGTERM")
    const exit = await daemon.exited
    expect(exit.at - sentAt).toBeLessThan(5_000)
    // Released cleanly, then ended by the signal (systemd counts that as a clean stop), not by the deadline.
    expect(daemon.stderr()).toContain("a device read is still blocked")
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: null, signal: "SIGTERM" })
    console.log(`SIGTERM to exit with a blocked input-device read: ${exit.at - sentAt} ms`)
  }, 30_000)
})
