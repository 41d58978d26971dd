import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { startSimulator } from "../../simulator/index.ts"
import { type PlaceConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { resources } from "../support/resources.ts"
import { runConfig } from "../systemd/run-config.ts"
import { configBenchAt, json } from "./config-support.ts"
import { reloadDaemon } from "../../src/setup/config/daemon-reload.ts"
import { type DaemonReload, setupEnvironment } from "../../src/setup/setup-environment.ts"

/** A save reloads the daemon it was told of: a real `scorebridge run` against the simulator, sent SIGHUP. */

const res = resources()
afterEach(() => res.release())

const token = "setup-reload-token"
const seed = {
  organizations: [{
    key: "setup-org",
    name: "setup tests",
    tokens: [token],
    places: [{ key: "court-1", name: "Court 1", sport: "basketball" }, { key: "court-2", name: "Court 2", sport: "basketball" }]
  }]
}

const jsonOnUdp = (key: string, port: number): PlaceConfig => ({
  key,
  sport: "basketball",
  scoreboard: { protocol: "json", udp: { listen: `127.0.0.1:${port}` }, options: { fields: { home: "score.home", away: "score.away" } } }
})

describe("reload after a save", () => {
  it("SIGHUP to --daemon-pid: the daemon logs that it reloaded the saved config with the new place", async () => {
    const sim = await startSimulator({ port: 0, seed })
    res.defer(() => sim.close())
    const dir = tempDir("setup-reload", res)
    const state = join(dir, "state")
    mkdirSync(state)
    const config = writeConfig(join(dir, "config.yaml"), runConfig({
      baseUrl: sim.url,
      stateDirectory: state,
      statusPort: await freePort(),
      places: [jsonOnUdp("court-1", await freePort())]
    }))
    const daemon = startDaemon(config, { env: { SCOREBRIDGE_TOKEN: token } })
    res.defer(() => daemon.stop())
    await daemon.waitForLog(/listening on 127.0.0.1:\d+ \(UDP\)/u)

    const bench = configBenchAt(config, { _tag: "pid", pid: daemon.process.pid! })
    const current = json(await bench.call("GET", "/api/config"))
    expect(current.valid).toBe(true)
    const before = daemon.logs().length
    const saved = await bench.call("POST", "/api/save", { fingerprint: current.fingerprint, replaces: null, place: jsonOnUdp("court-2", await freePort()), buttons: [] })
    expect(saved.status).toBe(200)
    expect(json(saved).reload).toEqual({ ok: true, message: expect.stringContaining(`SIGHUP sent to the daemon (pid ${daemon.process.pid})`) })
    await daemon.waitForLog(/reloaded .*: 2 place/u, { from: before })
    expect(daemon.hasExited()).toBe(false)
  }, 30_000)

  it("says in words what did not happen: no such pid, no such unit (or no systemctl), no daemon named", async () => {
    const dir = tempDir("setup-reload-words", res)
    const at = (reload: DaemonReload) => Effect.runPromise(reloadDaemon(setupEnvironment(join(dir, "config.yaml"), reload)))
    // A pid past the kernel's pid_max: nothing runs there.
    expect(await at({ _tag: "pid", pid: 2 ** 22 + 1 })).toEqual({ ok: false, message: expect.stringMatching(/^no process 4194305 \(the daemon stopped\?\)/u) })
    expect(await at({ _tag: "systemd", unit: "scorebridge-setup-test-no-such.service" })).toEqual({
      ok: false,
      message: expect.stringMatching(/^(systemctl is not on this machine|systemctl reload-or-restart scorebridge-setup-test-no-such\.service failed: )/u)
    })
    expect(await at({ _tag: "none" })).toEqual({ ok: false, message: expect.stringContaining("no daemon to reload") })
  })
})

