import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { openWriter, type PtyPair, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { type ScorebridgeProcess, startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { startSteps, type Steps, writeSetupConfig } from "./steps-support.ts"

/** After a save the page shows the court as the running daemon sees it: here a real daemon reading a Stramatel console on a pty. */
const token = "venue-token-3c9a71e0f2"
const seed = { organizations: [{ key: "riverside", name: "Riverside", tokens: [token], places: [{ key: "court-1", name: "Court 1", sport: "basketball" }] }] }

let dir: string
let simulator: RunningSimulator
let pty: PtyPair
let board: PtyWriter | undefined
let daemon: ScorebridgeProcess | undefined
let steps: Steps
let configPath: string

interface DaemonView {
  readonly reachable: boolean
  readonly detail?: string
  readonly places: ReadonlyArray<{
    readonly key: string
    readonly light: string
    readonly detail: string
    readonly reading: string | null
    readonly lastEntry?: { readonly at: number; readonly delivered: boolean; readonly state: string }
  }>
}

const daemonView = async () => (await steps.call("GET", "/api/daemon")).json as DaemonView

beforeAll(async () => {
  dir = tempDir("setup-steps-daemon")
  mkdirSync(join(dir, "state"))
  simulator = await startSimulator({ seed, requestsPerSecond: 50, burst: 50 })
  await new SimulatorControl(simulator.url).startEvent("court-1")
  pty = await startPtyPair(dir)
  configPath = writeSetupConfig(dir, daemonConfig({
    service: { baseUrl: simulator.url, companyKey: "riverside" },
    stateDirectory: join(dir, "state"),
    status: { listen: `127.0.0.1:${await freePort()}` },
    places: [{ key: "court-1", sport: "basketball", scoreboard: { protocol: "stramatel-452m", serial: { path: pty.daemonPath } } }]
  }))
  steps = await startSteps(dir)
})

afterAll(async () => {
  board?.close()
  await daemon?.stop()
  await steps.close()
  await pty.stop()
  await simulator.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("GET /api/daemon", () => {
  it("says the daemon is not running while nothing answers at the config's status address", async () => {
    const view = await daemonView()
    expect(view).toMatchObject({ reachable: false, places: [] })
    expect(view.detail).toMatch(/the daemon is not running: nothing answers at 127\.0\.0\.1:\d+/u)
  })

  it("shows the court's light as the status page does, and the first score entry delivered", async () => {
    daemon = startDaemon(configPath, { env: { SCOREBRIDGE_TOKEN: token } })
    await daemon.waitForLog(/status page on http/u, { timeoutMs: 20_000 })
    board = openWriter(pty.writerPath)
    const live = await eventually("the court LIVE with its first entry delivered", async () => {
      board!.write(frame(0x33, { home: 2, away: 0, period: 1, clock: "9:41" }))
      const view = await daemonView()
      const court = view.places.find((p) => p.key === "court-1")
      return court?.light === "LIVE" && court.lastEntry?.delivered === true ? view : undefined
    }, { timeoutMs: 15_000 })
    expect(live.reachable).toBe(true)
    expect(live.places[0]).toMatchObject({ key: "court-1", light: "LIVE", detail: "frames arriving", lastEntry: { delivered: true, state: "delivered" } })
    expect(live.places[0]!.reading).toMatch(/^2–0 · period 1/u)
  })
})
