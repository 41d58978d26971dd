import { mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { deviceForSetupUser, giveToSetupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { jsonOf, startSetupProcess } from "./setup-process-support.ts"

/**
 * The finding "seven FIFO paths tie up the thread pool … SIGTERM is ignored", against the setup
 * process: with seven browsers' captures waiting on idle pedals (a pty stands in for each input
 * device) and FIFOs offered as devices, SIGTERM still ends it promptly and cleanly. Before, each
 * capture held a blocking read on libuv's thread pool, and the process never got to its shutdown.
 */
const res = resources()
afterEach(() => res.release())

describe("scorebridge setup (the process) with captures waiting on idle devices", () => {
  it("ends on SIGTERM by itself (130, the CLI's interrupted exit; not the harness's SIGKILL), and refused the FIFO", async () => {
    const dir = tempDir("setup-sigterm-devices", res)
    const byId = join(dir, "by-id")
    mkdirSync(byId)
    const pedals: Array<string> = []
    for (let n = 0; n < 7; n++) {
      const pty = await startPtyPair(dir, `pedal-${n}`)
      res.defer(() => pty.stop())
      deviceForSetupUser(pty.daemonPath)
      const path = join(byId, `usb-Pedal${n}-event-kbd`)
      symlinkSync(pty.daemonPath, path)
      pedals.push(path)
    }
    giveToSetupUser(dir)
    const served = await startSetupProcess(res, "setup-sigterm", { env: { SCOREBRIDGE_INPUT_BY_ID: byId, SCOREBRIDGE_SETUP_SYSLOG: "off" } })
    const cookie = await served.logIn()
    for (const pedal of pedals) {
      const started = await served.post("/api/buttons/listen", cookie, { sources: { device: pedal } })
      expect(started.status, started.body).toBe(200)
    }
    const fifo = join(dir, "pedal.fifo")
    const refusedFifo = await served.post("/api/buttons/listen", cookie, { sources: { device: fifo } })
    expect(refusedFifo.status, refusedFifo.body).toBe(400)
    expect(jsonOf(refusedFifo).error).toMatch(/\S/u)
    // The server still answers while all seven wait.
    expect((await served.get("/api/config", cookie)).status).toBe(200)
    const exited = await served.setup.stop({ signal: "SIGTERM", graceMs: 5_000 })
    // A process that never got to its shutdown is SIGKILLed by stop() after graceMs: signal SIGKILL.
    expect(exited).toMatchObject({ code: 130, signal: null })
  })
})
