import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { writeConfig, type DaemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { runConfig, tennisOnSerial } from "../systemd/run-config.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"

/**
 * `scorebridge upgrade-window` against the real daemon as a process (what systemd's
 * ExecCondition= of apt-daily-upgrade runs), the simulator on loopback, socat ptys as the
 * court's scoreboard and its courtside button box.
 */

const token = "tok-uw-5f1e9c2a"
const place = "court-1"
const seed = { organizations: [{ key: "upgrade-org", name: "Upgrade tests", tokens: [token], places: [{ key: place, name: "Court 1", sport: "tennis" }] }] }

const res = resources()
afterEach(() => res.release())

describe("scorebridge upgrade-window with the bridge running", () => {
  it("exit 1 naming the court while its event is live or a click waits, 0 once the event ended, 0 when the bridge is stopped", async () => {
    const dir = tempDir("upgrade-window", res)
    const stateDir = join(dir, "package-state")
    const deferralFile = join(stateDir, "upgrade-window.json")
    const sim = await startSimulator({ port: 0, requestsPerSecond: 50, burst: 5, seed })
    res.defer(() => sim.close())
    const control = new SimulatorControl(sim.url)
    const board = await startPtyPair(dir, "board")
    res.defer(() => board.stop())
    const buttons = await startPtyPair(dir, "buttons")
    res.defer(() => buttons.stop())

    const stateDirectory = join(dir, "state")
    mkdirSync(stateDirectory)
    const statusPort = await freePort()
    const config: DaemonConfig = runConfig({
      baseUrl: sim.url,
      stateDirectory,
      statusPort,
      timeoutMs: 2_000,
      buttons: [{ name: "box", type: "serial-buttons", serial: { path: buttons.daemonPath } }],
      places: [{ ...tennisOnSerial(place, board.daemonPath), actions: [{ source: "box", gesture: "single", do: "highlight" }] }]
    })
    const configFile = writeConfig(join(dir, "config.yaml"), config)
    // The same bridge, judged on its clicks alone.
    const clicksOnly = writeConfig(join(dir, "clicks-only.yaml"), { ...config, upgrades: { window: { waitForLiveEvents: false } } })
    const upgradeWindow = (file = configFile) => runScorebridge("upgrade-window", ["--config", file, "--package-dir", stateDir])

    const status = async () => (await (await fetch(`http://127.0.0.1:${statusPort}/status.json`)).json()) as StatusSnapshot
    // Refused until the daemon's status page listens.
    const court = () => status().then((s) => s.places.find((p) => p.key === place), () => undefined)
    const untilCourt = (what: string, holds: (p: StatusSnapshot["places"][number]) => boolean) =>
      eventually(what, async () => {
        const now = await court()
        return now !== undefined && holds(now) ? true : undefined
      }, { timeoutMs: 10_000, intervalMs: 50 }).catch(async (error: Error) => {
        throw new Error(`${error.message}; court: ${JSON.stringify(await court())}; daemon log: ${daemon.logs().slice(-10).map((l) => l.msg).join(" | ")} ${daemon.stderr()}`)
      })
    let frame = 0
    // A new score each time: the place-score answer tells the bridge whether an event runs.
    const score = () => writeToPty(board.writerPath, `00:0${frame} ${["15-0", "30-0", "40-0", "40-15"][frame++]} 0-0\n`)

    const first = await control.startEvent(place, { homeTeam: "A", awayTeam: "B" })
    const daemon = startDaemon(configFile, { env: { SCOREBRIDGE_TOKEN: token } })
    res.defer(() => daemon.kill())
    await untilCourt("the bridge to know the live event", (p) => p.event?.key === first.eventKey)

    const live = await upgradeWindow()
    expect(live.stdout).toContain(`${place}: event ${first.eventKey} is live\nnot a good moment to upgrade: deferred since `)
    expect(live.code, live.stderr).toBe(1)
    expect(JSON.parse(readFileSync(deferralFile, "utf8")), "the deferral is remembered").toEqual({ deferredSince: expect.any(String) })

    await control.closeEvent(place)
    score()
    await untilCourt("the bridge to learn the event ended", (p) => p.event !== null && p.event.key === null)
    const ended = await upgradeWindow()
    expect(ended.stdout).toBe("good moment to upgrade: no court has a live event or a click waiting\n")
    expect(ended.code, ended.stderr).toBe(0)
    expect(existsSync(deferralFile), "a window found clears the deferral").toBe(false)

    // A press needs a live event; the bridge learns it from the next score's answer.
    const second = await control.startEvent(place, { homeTeam: "C", awayTeam: "D" })
    score()
    await untilCourt("the bridge to know the second event", (p) => p.event?.key === second.eventKey)
    await control.injectFault({ kind: "status", status: 503, durationMs: 60_000 })
    writeToPty(buttons.writerPath, "BTN 1 single\n")
    await untilCourt("the click waiting in the outbox", (p) => p.queue.click === 1)

    const waiting = await upgradeWindow(clicksOnly)
    expect(waiting.stdout).toMatch(new RegExp(`^${place}: 1 click waiting\nnot a good moment to upgrade: `, "u"))
    expect(waiting.code, waiting.stderr).toBe(1)
    const both = await upgradeWindow()
    expect(both.stdout).toContain(`${place}: event ${second.eventKey} is live\n${place}: 1 click waiting\n`)
    expect(both.code).toBe(1)

    daemon.process.kill("SIGTERM")
    expect((await daemon.exited).code).toBe(0)
    const stopped = await upgradeWindow()
    expect(stopped.stdout).toBe(`good moment to upgrade: scorebridge is not running (nothing listens at 127.0.0.1:${statusPort}), nothing to interrupt\n`)
    expect(stopped.code, stopped.stderr).toBe(0)
    for (const run of [live, ended, waiting, both, stopped]) expect(run.stdout + run.stderr).not.toContain(token)
  }, 60_000)

  it("a config that does not load: exit 1 (skip this run), the problem on stderr", async () => {
    const dir = tempDir("upgrade-window-broken", res)
    const file = join(dir, "config.yaml")
    writeConfig(file, { service: { baseUrl: "http://127.0.0.1:9", token: { env: "SCOREBRIDGE_TOKEN" } }, places: [] })
    const run = await runScorebridge("upgrade-window", ["--config", file, "--package-dir", join(dir, "package-state")])
    expect(run.stderr).toContain("places: at least one place is required")
    expect(run.stderr).toContain("not a good moment to upgrade: the config does not load")
    expect(run.code).toBe(1)
  })
})
