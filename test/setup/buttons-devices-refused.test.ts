import { execFileSync } from "node:child_process"
import { closeSync, constants, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ButtonApi, startButtonApi } from "./buttons-harness.ts"
import { startSteps, type Steps } from "./steps-support.ts"

let api: ButtonApi | undefined
let steps: Steps | undefined
afterEach(async () => {
  await api?.close()
  await steps?.close()
  api = undefined
  steps = undefined
  for (const name of ["SCOREBRIDGE_SERIAL_BY_ID", "SCOREBRIDGE_INPUT_BY_ID", "SCOREBRIDGE_INPUT_BY_PATH", "SCOREBRIDGE_GPIO_DIR"]) delete process.env[name]
})

const config = { service: { baseUrl: "https://service.invalid", token: { credential: "token" } }, places: [{ key: "court-1", sport: "basketball" }] }

/** Directories standing in for /dev/serial/by-id, /dev/input/by-id and /dev: a FIFO, a root-only file and a link to one in each. */
const devices = (dir: string) => {
  const at = { serial: join(dir, "serial-by-id"), input: join(dir, "input-by-id"), dev: join(dir, "dev") }
  for (const directory of Object.values(at)) mkdirSync(directory)
  const secret = join(dir, "root-only")
  writeFileSync(secret, "BTN 1 single\n", { mode: 0o600 })
  const fifo = (directory: string, name: string) => {
    const path = join(directory, name)
    execFileSync("mkfifo", [path])
    return path
  }
  const linkTo = (directory: string, name: string, target: string) => {
    const path = join(directory, name)
    symlinkSync(target, path)
    return path
  }
  process.env.SCOREBRIDGE_SERIAL_BY_ID = at.serial
  process.env.SCOREBRIDGE_INPUT_BY_ID = at.input
  process.env.SCOREBRIDGE_INPUT_BY_PATH = join(dir, "no-input-by-path")
  process.env.SCOREBRIDGE_GPIO_DIR = at.dev
  return { at, secret, fifo, linkTo }
}

const errorOf = (reply: { readonly json?: unknown }) => (reply.json as { error: string }).error

describe("a button capture opens only the character devices present", () => {
  it("refuses a path outside the lists, a FIFO, a root-only file and a by-id link to it, saying why", async () => {
    const dir = tempDir("setup-buttons-refused")
    const { at, secret, fifo, linkTo } = devices(dir)
    const serialFifo = fifo(at.serial, "usb-FIFO-if00")
    const serialToFile = linkTo(at.serial, "usb-Secret-if00", secret)
    const inputFifo = fifo(at.input, "usb-Pedal-event-kbd")
    const inputToFile = linkTo(at.input, "usb-Keys-event-kbd", secret)
    writeFileSync(join(at.dev, "gpiochip0"), "")
    api = await startButtonApi(dir, config)
    const refused = async (sources: object, why: RegExp) => {
      const reply = await api!.call("POST", "/api/buttons/listen", { sources })
      expect(reply.status, JSON.stringify(reply.json)).toBe(400)
      expect(errorOf(reply)).toMatch(why)
    }
    await refused({ serial: { path: secret } }, /root-only is not a serial adapter of \/dev\/serial\/by-id: pick one from the list/u)
    await refused({ serial: { path: "/etc/shadow" } }, /^serial: \/etc\/shadow is not a serial adapter/u)
    await refused({ serial: { path: serialFifo } }, /usb-FIFO-if00 leads to .*, which is not a character device: only devices are opened/u)
    await refused({ serial: { path: serialToFile } }, /usb-Secret-if00 leads to .*root-only, which is not a character device/u)
    await refused({ device: secret }, /^device: .*root-only is not an input device of \/dev\/input\/by-id or \/dev\/input\/by-path/u)
    await refused({ device: inputFifo }, /usb-Pedal-event-kbd leads to .*, which is not a character device/u)
    await refused({ device: inputToFile }, /usb-Keys-event-kbd leads to .*root-only, which is not a character device/u)
    await refused({ gpio: { chip: secret, lines: [17] } }, /^gpio: .*root-only is not a GPIO chip/u)
    await refused({ gpio: { chip: "gpiochip0", lines: [17] } }, /gpiochip0 leads to .*, which is not a character device/u)
  })

  it("answers every other request while captures name FIFOs: nothing waits for a writer in the thread pool", async () => {
    const dir = tempDir("setup-buttons-refused-pool")
    const { at, fifo } = devices(dir)
    const fifos = Array.from({ length: 7 }, (_, n) => fifo(at.input, `usb-Stuck${n}-event-kbd`))
    api = await startButtonApi(dir, config)
    try {
      for (const [n, path] of fifos.entries()) await api.call("POST", "/api/buttons/listen", { sources: { device: path } }, `browser-${n}`)
      // Listing the devices reads directories and files: on the thread pool, which 7 waiting opens would fill.
      const answered = await Promise.race([
        api.call("GET", "/api/buttons/devices").then(() => "answered"),
        new Promise((resolve) => setTimeout(resolve, 3_000, "hung")).then((what) => what)
      ])
      expect(answered).toBe("answered")
    } finally {
      // Were an open waiting on one, a writer lets it go (and lets the test end).
      for (const path of fifos) {
        try {
          closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK))
        } catch {
          // ENXIO: nobody waits on it.
        }
      }
    }
  })
})

describe("the listening step opens only the serial adapters present", () => {
  it("refuses a FIFO in by-id and a by-id link to a root-only file, saying why", async () => {
    const dir = tempDir("setup-listen-refused")
    const { at, secret, fifo, linkTo } = devices(dir)
    const serialFifo = fifo(at.serial, "usb-FIFO-if00")
    const serialToFile = linkTo(at.serial, "usb-Secret-if00", secret)
    steps = await startSteps(dir)
    for (const [path, why] of [
      [serialFifo, /usb-FIFO-if00 leads to .*, which is not a character device/u],
      [serialToFile, /usb-Secret-if00 leads to .*root-only, which is not a character device/u],
      [secret, /root-only is not a serial adapter of \/dev\/serial\/by-id/u]
    ] as const) {
      const reply = await steps.call("POST", "/api/listen", { body: { protocol: "stramatel-452m", sport: "basketball", link: { serial: { path } } } })
      expect(reply.status).toBe(400)
      expect(errorOf(reply)).toMatch(why)
    }
  })
})
