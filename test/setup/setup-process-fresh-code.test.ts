import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { giveToSetupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { ask } from "./setup-http.ts"
import { printedCodes } from "./setup-process-support.ts"

/** `scorebridge setup` as a process: the terminal asks for a fresh code with SIGUSR1 (or Enter on a terminal). */
const res = resources()
afterEach(() => res.release())

const configIn = (name: string) => {
  const dir = tempDir(name, res)
  const config = writeConfig(join(dir, "config.yaml"), daemonConfig({ service: { baseUrl: "http://127.0.0.1:9/" }, places: [] }))
  // Started as root, setup serves as the config's owner.
  giveToSetupUser(dir)
  return config
}

// Through a pty (script(1)) lines end in \r\n: the codes read without the line's end.
const codesOn = (stdout: string) => [...stdout.matchAll(/^setup code: ([A-Z2-9]{4}-[A-Z2-9]{4})\r?$/gmu)].map((match) => match[1]!)

const shellWords = (words: ReadonlyArray<string>) => words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ")

describe("scorebridge setup: a fresh code on the terminal's request", () => {
  it("SIGUSR1 prints a fresh code, says so when it starts, and the code before it no longer logs in", async () => {
    const config = configIn("setup-fresh-code")
    const port = await freePort()
    const setup = startScorebridge(["setup", "--config", config, "--port", String(port)])
    res.defer(() => setup.stop())
    const first = await eventually("the first code", () => printedCodes(setup)[0], { timeoutMs: 15_000 })
    const pid = setup.process.pid!
    expect(setup.stdout()).toContain(`SIGUSR1 (kill -USR1 ${pid}) prints a fresh code\n`)
    process.kill(pid, "SIGUSR1")
    const fresh = await eventually("a fresh code", () => printedCodes(setup)[1], { timeoutMs: 5_000 })
    expect(fresh).not.toBe(first)
    expect(setup.hasExited()).toBe(false)
    expect((await ask(port, { method: "POST", path: "/login", form: { code: first } })).status).toBe(401)
    expect((await ask(port, { method: "POST", path: "/login", form: { code: fresh } })).status).toBe(303)
  }, 30_000)

  it("on a terminal, Enter prints a fresh code, and the line after the first code says so", async () => {
    const port = await freePort()
    const setup = startScorebridge(["setup", "--config", configIn("setup-fresh-code-tty"), "--port", String(port)], {
      stdin: "pipe",
      wrap: (command, args) => ["script", ["-qfec", shellWords([command, ...args]), "/dev/null"]]
    })
    res.defer(() => setup.stop())
    const first = await eventually("the first code", () => codesOn(setup.stdout())[0], { timeoutMs: 15_000 })
    await eventually("the hint", () => setup.stdout().includes("Enter (or SIGUSR1) prints a fresh code") || undefined)
    setup.process.stdin!.write("\n")
    const fresh = await eventually("a fresh code", () => codesOn(setup.stdout())[1], { timeoutMs: 5_000 })
    expect(fresh).not.toBe(first)
    expect((await ask(port, { method: "POST", path: "/login", form: { code: fresh } })).status).toBe(303)
  }, 30_000)
})
