import { spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startPtyPair } from "../../scripts/support/pty.ts"
import { runConfig, tennisOnSerial } from "./run-config.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"

/**
 * Node cannot open a unix datagram socket, so the fake $NOTIFY_SOCKET is a small python3
 * receiver printing each datagram as one JSON string per line. systemd-notify's barrier passes
 * a file descriptor the receiver does not take; the kernel closes it, which ends the barrier.
 */
const receiver = `
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print(json.dumps("bound"), flush=True)
while True:
    print(json.dumps(s.recv(65536).decode("utf-8", "replace")), flush=True)
`

const res = resources()
afterEach(() => res.release())

const startReceiver = async (path: string) => {
  const child = spawn("python3", ["-c", receiver, path], { stdio: ["ignore", "pipe", "inherit"] })
  res.defer(() => void child.kill("SIGKILL"))
  const messages: Array<string> = []
  let partial = ""
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (text: string) => {
    const lines = (partial + text).split("\n")
    partial = lines.pop() ?? ""
    for (const line of lines) if (line !== "") messages.push(JSON.parse(line) as string)
  })
  await eventually("the notify receiver to bind", () => messages.includes("bound") ? true : undefined)
  // Each message as its fields; systemd-notify's own BARRIER=1 messages are not ours.
  return () =>
    messages.filter((m) => m !== "bound" && m !== "BARRIER=1").map((m) => Object.fromEntries(m.split("\n").map((f) => {
      const at = f.indexOf("=")
      return [f.slice(0, at), f.slice(at + 1)]
    })) as Record<string, string>)
}

describe("readiness and watchdog through $NOTIFY_SOCKET (a real process)", () => {
  it("says READY=1 once started, then WATCHDOG=1 with a STATUS summary; a SIGHUP shows as RELOADING=1 then READY=1", async () => {
    const dir = tempDir("notify", res)
    const sim = await startSimulator({ port: 0, seed: { organizations: [{ key: "o", name: "o", tokens: ["t"], places: [{ key: "court-1", name: "c", sport: "tennis" }] }] } })
    res.defer(() => sim.close())
    await new SimulatorControl(sim.url).startEvent("court-1", {})
    const pty = await startPtyPair(dir, "court-1")
    res.defer(() => pty.stop())
    const state = join(dir, "state")
    mkdirSync(state)
    const config = join(dir, "config.yaml")
    writeConfig(config, runConfig({ baseUrl: sim.url, stateDirectory: state, statusPort: await freePort(), places: [tennisOnSerial("court-1", pty.daemonPath)] }))
    const socket = join(dir, "notify.sock")
    const received = await startReceiver(socket)

    // WATCHDOG_USEC of 1 s: a ping every 500 ms.
    const daemon = startDaemon(config, { env: { SCOREBRIDGE_TOKEN: "t", NOTIFY_SOCKET: socket, WATCHDOG_USEC: "1000000" } })
    res.defer(() => daemon.kill())
    await eventually("READY=1 and then two watchdog pings", () => {
      const got = received()
      const ready = got.findIndex((m) => m["READY"] === "1")
      return ready >= 0 && got.slice(ready).filter((m) => m["WATCHDOG"] === "1").length >= 2 ? got : undefined
    }, { timeoutMs: 10_000 })
    const got = received()
    const ready = got.findIndex((m) => m["READY"] === "1")
    expect(got[ready]?.["STATUS"]).toBe("running: court-1")
    // Ready only once the daemon is up: it had already started opening the serial port.
    expect(daemon.logs().some((l) => /court-1: tennis scoreboard/.test(l.msg))).toBe(true)
    expect(got.slice(ready).find((m) => m["WATCHDOG"] === "1")?.["STATUS"]).toMatch(/^running: 1 place, 0 pending, 0 dead, \d+ sent last minute$/)

    const before = received().length
    daemon.process.kill("SIGHUP")
    await eventually("RELOADING=1 then READY=1 after the SIGHUP", () => {
      const after = received().slice(before)
      const reloading = after.findIndex((m) => m["RELOADING"] === "1")
      return reloading >= 0 && after.slice(reloading).some((m) => m["READY"] === "1") ? true : undefined
    }, { timeoutMs: 10_000 })
    // The reloaded daemon pings too.
    const reloaded = received().length
    await eventually("a watchdog ping after the reload", () =>
      received().slice(reloaded).some((m) => m["WATCHDOG"] === "1") ? true : undefined)
  }, 30_000)
})
