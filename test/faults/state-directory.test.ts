import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { checkPresses } from "./support/guarantees.ts"
import { scenarioTimeoutMs } from "./support/mode.ts"
import { pressEvery, primeSession } from "./support/presses.ts"
import { figures, recordFigures } from "./support/summary.ts"
import { mqttPlace, startWorld, type World } from "./support/world.ts"
import { sleep } from "../support/sleep.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The state directory read-only or full, for real: the daemon runs in its own mount namespace
 * (unshare -m) where the directory is a read-only bind mount or a tiny tmpfs, and the test
 * changes that mount from outside with nsenter while the daemon runs. Needs root (or
 * CAP_SYS_ADMIN); skipped cleanly where mounting is not permitted.
 */
const probe = tempDir("faults-mount")
const canMount = spawnSync("unshare", ["-m", "mount", "-t", "tmpfs", "tmpfs", probe]).status === 0
rmSync(probe, { recursive: true, force: true })

let world: World | undefined
const stateRoots: Array<string> = []
afterEach(async () => {
  await world?.release()
  world = undefined
  for (const root of stateRoots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const stateDirectory = (name: string): string => {
  const root = tempDir(`faults-${name}`)
  stateRoots.push(root)
  const state = join(root, "state")
  mkdirSync(state)
  return state
}

/** Runs `script` in the daemon's mount namespace. */
const inDaemonMounts = (world: World, script: string): void => {
  const pid = world.daemon.pid()
  if (pid === undefined) throw new Error("daemon not running")
  execFileSync("nsenter", ["-t", String(pid), "-m", "sh", "-ec", script], { stdio: "pipe" })
}

/**
 * Once the state directory is usable again: stops pressing, waits for the presses the broker
 * acknowledged to become moments, records the scenario's figures and checks each arrived once.
 */
const pressesArriveOnce = async (world: World, presser: ReturnType<typeof pressEvery>, scenario: string, runs: number, said: string) => {
  await presser.stop()
  await eventually("every press to arrive", async () => {
    const now = (await world.control.state()).events.find((e) => e.key === world.eventKeys[mqttPlace])
    return (now?.moments.length ?? 0) >= presser.acknowledged.length ? true : undefined
  }, { timeoutMs: 30_000, intervalMs: 250 }).catch(() => undefined)
  const presses = await checkPresses(world, mqttPlace, presser.acknowledged)
  recordFigures(scenario, {
    ...figures(),
    runs,
    faultsInjected: 1,
    pressesSent: presses.sent,
    pressesDelivered: presses.delivered,
    duplicates: presses.duplicates,
    crashes: world.daemon.crashes(),
    notes: `said: ${said.slice(0, 160)}`
  })
  expect(presses.problems, world.daemon.tail()).toEqual([])
}

describe.skipIf(!canMount)("state directory read-only or full", () => {
  it("read-only at start-up: the daemon waits (no crash loop), says why, acknowledges nothing, and recovers by itself", async () => {
    const state = stateDirectory("ro")
    let readOnly = false
    world = await startWorld("state-read-only", {
      stateDirectory: state,
      wrap: (command, args) =>
        readOnly
          ? ["unshare", ["-m", "sh", "-ec", `mount --bind ${state} ${state}; mount -o remount,ro,bind ${state}; exec "$0" "$@"`, command, ...args]]
          : [command, args]
    })
    const { daemon } = world
    // A first, writable run makes the broker keep a persistent session for the daemon.
    const primed = await primeSession(world)
    await daemon.stop()
    readOnly = true
    const from = daemon.logs().length
    daemon.start()
    const why = await daemon.waitForLog(/cannot open outbox .*(read-only|not writable)/, { from })
    const presser = pressEvery(world.publisher, 300, [primed])
    // Read-only for 8 s while presses are made, past the first retry (5 s).
    await sleep(8_000)

    inDaemonMounts(world, `mount -o remount,rw,bind ${state}`)
    // Said by the run started read-only: it kept running while it waited.
    const usable = await daemon.waitForLog(/usable again/, { from, timeoutMs: 15_000 })
    expect(daemon.crashes()).toBe(0)
    // Its time is the daemon's own (pino's), so a click it sent just after saying it counts as after.
    const clicks = await world.control.requests({ method: "POST", pathPrefix: `/public/events/${world.eventKeys[mqttPlace]}/clicks` })
    const madeBefore = clicks.filter((r) => r.status === 200 && r.at < Number(usable["time"]))
    expect(madeBefore.length, "presses made into moments before the outbox could be opened (only the priming one)").toBe(1)
    await pressesArriveOnce(world, presser, "state-read-only", 2, why.msg)
  }, scenarioTimeoutMs)

  it("full while running: presses it cannot store stay at the broker, the log says why, all arrive once space is back", async () => {
    const state = stateDirectory("full")
    world = await startWorld("state-full", {
      stateDirectory: state,
      wrap: (command, args) => ["unshare", ["-m", "sh", "-ec", `mount -t tmpfs -o size=2m tmpfs ${state}; exec "$0" "$@"`, command, ...args]]
    })
    const { daemon } = world
    const primed = await primeSession(world)
    const from = daemon.logs().length
    // Fill what is left; dd ends with ENOSPC, which is the point.
    inDaemonMounts(world, `dd if=/dev/zero of=${state}/filler bs=16k 2>/dev/null || true`)
    const presser = pressEvery(world.publisher, 300, [primed])
    const why = await daemon.waitForLog(/not stored \(.*(full|FULL|space)/, { from, timeoutMs: 20_000 })
    // Full for 2 s more while presses are made; then space is back, and every press must arrive once.
    await sleep(2_000)
    inDaemonMounts(world, `rm -f ${state}/filler`)
    await pressesArriveOnce(world, presser, "state-full", 1, why.msg)
    expect(daemon.crashes()).toBe(0)
  }, scenarioTimeoutMs)
})
