import { createServer } from "node:http"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { lookAtSystem, unitObservation } from "../../src/upgrade/system-look.ts"
import { resources } from "../scoreboard/harness.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { basketballLine, startStatusDaemon } from "../status/status-daemon.ts"

/**
 * What the guard sees of the real system: the real daemon's /status.json decoded into its delivery
 * figures, the service's probe against servers that answer, fail or are not there, and systemctl
 * show's lines (systemd as PID 1 is not there in the tests: the parsing is what can be checked).
 */
const res = resources()
afterAll(() => res.release())

/** A loopback server answering every request with `status`. */
const serviceAnswering = async (status: number) => {
  const server = createServer((_, response) => response.writeHead(status).end())
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  res.defer(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${port}/`
}

describe("the guard's look at the system", () => {
  it("reads the real daemon's deliveries and tells an answering service from a failing or unreachable one", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live"] })
    const statusListen = daemon.url.replace("http://", "")
    const look = (serviceUrl: string) => Effect.runPromise(lookAtSystem({ statusListen, serviceUrl, systemd: false }))

    const before = await look(await serviceAnswering(404))
    expect(before).toEqual({ unit: null, daemon: { pending: 0, lastDeliveredAt: null, heldBack: null }, service: "answering" })

    const line = basketballLine(2, 0)
    const timer = setInterval(() => daemon.scoreboard.write(line), 100)
    res.defer(() => clearInterval(timer))
    const after = await eventually("the entry delivered, as the guard sees it", async () => {
      const seen = await look(await serviceAnswering(200))
      return seen.daemon?.lastDeliveredAt != null ? seen : undefined
    }, { timeoutMs: 10_000, intervalMs: 200 })
    expect(after.daemon!.lastDeliveredAt).toBeGreaterThan(Date.now() - 30_000)

    expect((await look(await serviceAnswering(503))).service).toBe("failing")
    expect((await look(`http://127.0.0.1:${await freePort()}/`)).service).toBe("unreachable")

    await daemon.stop()
    expect((await look(await serviceAnswering(404))).daemon).toBeNull()
  }, 30_000)

  it("reads systemctl show's lines", () => {
    expect(unitObservation("ActiveState=activating\nSubState=auto-restart\nNRestarts=2\n")).toEqual({ activeState: "activating", subState: "auto-restart", restarts: 2 })
    expect(unitObservation("NRestarts=0\nActiveState=active\nSubState=running\n")).toEqual({ activeState: "active", subState: "running", restarts: 0 })
    // An unknown unit or an older systemd without NRestarts: nothing to judge by.
    expect(unitObservation("ActiveState=inactive\nSubState=dead\n")).toBeNull()
  })
})
