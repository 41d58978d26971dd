import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startSimulator } from "../../simulator/index.ts"
import { writeConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { resources } from "../support/resources.ts"
import { runConfig } from "../systemd/run-config.ts"

/**
 * The office edits config.yaml by hand and sends SIGHUP: a service address moved with the same
 * token goes ahead (their edit), and the journal gets a warning naming where the token now goes.
 */

const res = resources()
afterEach(() => res.release())

const token = "reload-token-Distinct-31"
const seed = { organizations: [{ key: "org", name: "org", tokens: [token], places: [{ key: "court-1", name: "Court 1", sport: "tennis" }] }] }

describe("scorebridge run: a reload that moves the service with the same token", () => {
  it("reloads and logs a warning with the old and new origins, never the token", async () => {
    const dir = tempDir("reload-moved", res)
    const [first, second] = [await startSimulator({ port: 0, seed }), await startSimulator({ port: 0, seed })]
    res.defer(() => first.close())
    res.defer(() => second.close())
    const state = join(dir, "state")
    mkdirSync(state)
    const statusPort = await freePort()
    const config = join(dir, "config.yaml")
    const places = [{ key: "court-1", sport: "tennis" as const }]
    writeConfig(config, runConfig({ baseUrl: first.url, stateDirectory: state, statusPort, places }))
    const daemon = startDaemon(config, { env: { SCOREBRIDGE_TOKEN: token } })
    res.defer(() => daemon.kill())
    await daemon.waitForLog(/status page on/u, { timeoutMs: 30_000 })

    writeConfig(config, runConfig({ baseUrl: second.url, stateDirectory: state, statusPort, places }))
    const before = daemon.logs().length
    daemon.process.kill("SIGHUP")
    const warning = await daemon.waitForLog(/service\.baseUrl moved/u, { from: before, timeoutMs: 30_000 })
    expect(warning.level).toBe(40) // pino: warn
    expect(warning.msg).toContain(`moved from ${new URL(first.url).origin} to ${new URL(second.url).origin} with the same token`)
    expect(JSON.stringify(daemon.logs())).not.toContain(token)
    await daemon.waitForLog(/reloaded .*: 1 place/u, { from: before, timeoutMs: 30_000 })
  }, 90_000)
})
