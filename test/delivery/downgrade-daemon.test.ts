import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { outboxStates } from "../support/outbox-file.ts"
import { startPtyPair } from "../../scripts/support/pty.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { runConfig, tennisOnSerial } from "../systemd/run-config.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { newerBridge, newerVersion, upgradeAdditively, userVersion, withDatabase } from "./newer-outbox.ts"
import { runWithOutbox } from "./outbox-support.ts"

/**
 * A venue gone back one version, as it runs: `bin/scorebridge run` as a real process finds the
 * outbox a newer bridge left (changed additively: see newer-outbox.ts) and delivers every pending
 * item in it to the simulator.
 */

const token = "downgrade-token"
const seed = {
  organizations: [{ key: "downgrade-org", name: "downgrade", tokens: [token], places: [{ key: "court-1", name: "Court 1", sport: "tennis" }] }]
}

const tennisEntry = (i: number, at: number) => ({
  timeStamp: at + i,
  left: i,
  right: 0,
  period: 1,
  scoreValue: { gameScores: [[0, 0]], pointScore: [i, 0] }
})

const res = resources()
afterEach(() => res.release())

it("the daemon delivers the pending items of an outbox a newer scorebridge left, and says so once", async () => {
  const dir = tempDir("downgrade", res)
  const state = join(dir, "state")
  mkdirSync(state)
  const pressedAt = Date.now()
  await runWithOutbox(state, (outbox) => outbox.append({ place: "court-1", kind: "score", payload: tennisEntry(0, pressedAt), createdAt: pressedAt }))
  upgradeAdditively(state, { pressedAt, entry: tennisEntry })

  const sim = await startSimulator({ port: 0, requestsPerSecond: 20, burst: 5, seed })
  res.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)
  const { eventKey } = await control.startEvent("court-1")
  const court = await startPtyPair(dir, "court-1")
  res.defer(() => court.stop())
  const config = writeConfig(
    join(dir, "config.yaml"),
    runConfig({ baseUrl: sim.url, stateDirectory: state, statusPort: await freePort(), places: [tennisOnSerial("court-1", court.daemonPath)] })
  )
  const daemon = startDaemon(config, { env: { SCOREBRIDGE_TOKEN: token } })
  res.defer(() => daemon.kill())

  await daemon.waitForLog(/reads it: pending items are delivered/)
  await eventually("the 4 pending items delivered", () => (outboxStates(state)["delivered"] === 4 ? true : undefined), {
    timeoutMs: 15_000,
    intervalMs: 100
  })
  const event = (await control.state()).events.find((e) => e.key === eventKey)!
  expect(event.scoreStream.map((entry) => entry["left"])).toEqual([0, 1, 2])
  expect(event.moments.map((moment) => moment.metadata?.["clickId"])).toEqual(["newer-click"])
  // The daemon opens the file twice at start (a probe while it waits for the state directory, then for good).
  expect(daemon.logs().filter((line) => /written by a newer scorebridge/.test(line.msg)).map((line) => line.msg)).toEqual([
    `outbox ${join(state, "outbox.sqlite")} written by a newer scorebridge (schema ${newerVersion}, scorebridge ${newerBridge}); ` +
    `this version (schema ${schemaVersion}) reads it: pending items are delivered`
  ])
  expect(withDatabase(state, userVersion)).toBe(newerVersion)
  expect(daemon.process.exitCode).toBeNull()
}, 40_000)
