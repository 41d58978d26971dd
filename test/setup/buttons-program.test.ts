import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { stringify } from "yaml"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { gpiomonLine, gpiomonStandIn } from "../clicks-e2e/harness.ts"
import { type ButtonApi, pollCapture, pressedOf, startButtonApi } from "./buttons-harness.ts"
import { configBenchAt, json } from "./config-support.ts"

let api: ButtonApi | undefined
const path = process.env.PATH
afterEach(async () => {
  await api?.close()
  api = undefined
  process.env.PATH = path
  delete process.env.SCOREBRIDGE_GPIO_DIR
})

/** A program that leaves a mark when it runs: what the page must never get started. */
const markingProgram = (dir: string) => {
  const mark = join(dir, "it-ran")
  const program = join(dir, "not-gpiomon")
  writeFileSync(program, `#!/bin/sh\ntouch "${mark}"\nsleep 5\n`)
  chmodSync(program, 0o755)
  return { program, ran: () => existsSync(mark) }
}

/** /dev/gpiochip0 for the test: a link to a character device in a directory of its own. */
const gpioDirectory = (dir: string) => {
  const dev = join(dir, "dev")
  mkdirSync(dev)
  symlinkSync("/dev/null", join(dev, "gpiochip0"))
  process.env.SCOREBRIDGE_GPIO_DIR = dev
}

const service = { baseUrl: "https://service.invalid", token: { credential: "token" } }
const court = { key: "court-1", sport: "basketball" }

describe("the page names no program", () => {
  it("refuses a capture that names the GPIO tool (sources.gpio.command) with a 400, and nothing runs", async () => {
    const dir = tempDir("setup-buttons-program")
    gpioDirectory(dir)
    const { program, ran } = markingProgram(dir)
    api = await startButtonApi(dir, { service, places: [court] })
    const reply = await api.call("POST", "/api/buttons/listen", { sources: { gpio: { chip: "gpiochip0", lines: [17], command: program } } })
    expect(reply.status).toBe(400)
    expect((reply.json as { error: string }).error).toMatch(/^sources\.gpio\.command: the page does not name a program/u)
    expect(ran()).toBe(false)
  })

  it("reads a chip the config reads with a hand-written command by the package's gpiomon, and proposes the entry without the command", async () => {
    const dir = tempDir("setup-buttons-program-known")
    gpioDirectory(dir)
    const { program, ran } = markingProgram(dir)
    const edges = join(dir, "edges")
    const pressAt = Date.now() - 400
    writeFileSync(edges, gpiomonLine(pressAt, "rising", 17) + gpiomonLine(pressAt + 120, "falling", 17))
    const bin = join(dir, "bin")
    mkdirSync(bin)
    gpiomonStandIn(bin, edges)
    process.env.PATH = `${bin}${delimiter}${path}`
    const entry = { name: "court-buttons", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17], command: program } }
    api = await startButtonApi(dir, { service, places: [court], buttons: [entry] })
    const started = await api.call("POST", "/api/buttons/listen", { sources: { gpio: { chip: "gpiochip0", lines: [17] } } })
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    const { id } = started.json as { id: string }
    const pressed = pressedOf(await pollCapture(api, id, "the GPIO press", (reply) => pressedOf(reply) !== undefined))
    expect(pressed).toMatchObject({ known: true, entry: { name: "court-buttons", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17] } } })
    expect((pressed as { entry: { gpio: object } }).entry.gpio).not.toHaveProperty("command")
    expect(ran()).toBe(false)
  })
})

describe("a buttons: entry the page saves", () => {
  const withEntry = (dir: string, gpio: object) => {
    const file = join(dir, "config.yaml")
    writeFileSync(file, stringify({ service, places: [court], buttons: [{ name: "court-buttons", type: "gpiomon", gpio }] }))
    return file
  }

  it("never names a program, and saving the entry without one removes the command the file had", async () => {
    const dir = tempDir("setup-buttons-program-save")
    const file = withEntry(dir, { chip: "gpiochip0", lines: [17], command: "/usr/bin/perl" })
    const bench = configBenchAt(file)
    const { fingerprint } = json(await bench.call("GET", "/api/config"))
    const named = await bench.call("POST", "/api/save", {
      fingerprint, replaces: "court-1", place: court,
      buttons: [{ name: "court-buttons", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17], command: "/usr/bin/perl" } }]
    })
    expect(named.status).toBe(400)
    expect(json(named).error).toMatch(/gpio\.command names a program, which the page may not/u)
    const saved = await bench.call("POST", "/api/save", {
      fingerprint, replaces: "court-1", place: court,
      buttons: [{ name: "court-buttons", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17, 27] } }]
    })
    expect(saved.status, JSON.stringify(saved.json)).toBe(200)
    const text = readFileSync(file, "utf8")
    expect(text).not.toContain("command")
    expect(text).not.toContain("/usr/bin/perl")
  })
})
