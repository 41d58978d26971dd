import { rmSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit, Result, Scope } from "effect"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { listenRequest } from "../../src/setup/steps/listen-request.ts"
import { openListening } from "../../src/setup/steps/listening-session.ts"
import { deviceDirectories } from "../../src/setup/steps/page-devices.ts"
import { type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { heldLineSettings } from "../commissioning/support.ts"
import { byIdLink, useByIdDirectory } from "./steps-support.ts"

let dir: string
let byId: string
let restoreById: () => void
let pty: PtyPair
let adapter: string

beforeAll(() => {
  dir = tempDir("setup-listen-framing")
  byId = join(dir, "by-id")
  restoreById = useByIdDirectory(byId)
})
afterAll(() => {
  restoreById()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  pty = await startPtyPair(dir)
  adapter = byIdLink(byId, `usb-FTDI_FT232R-${Date.now()}-if00-port0`, pty.daemonPath)
})
afterEach(async () => {
  rmSync(adapter, { force: true })
  await pty.stop()
})

const sourceOf = async (body: object) => {
  const request = await Effect.runPromise(Effect.result(listenRequest(body, { lan: false, directories: deviceDirectories() })))
  if (Result.isFailure(request)) throw new Error(request.failure)
  return request.success
}

/** What the kernel holds for the adapter while the page's listening session has it open. */
const heldWhileListening = (body: object) =>
  Effect.runPromise(Effect.gen(function*() {
    const parent = yield* Scope.make()
    const request = yield* Effect.promise(() => sourceOf(body))
    yield* openListening("listen-1", "browser-1", request, parent)
    const held = heldLineSettings(pty.daemonPath)
    yield* Scope.close(parent, Exit.void)
    return held
  }))

describe("the setup page's listening step opens the console's framing", () => {
  it("opens the console's speed and framing when the court gives none (Stramatel: 19200 8N1)", async () => {
    expect((await sourceOf({ protocol: "stramatel-452m", sport: "basketball", link: { serial: { path: adapter } } })).source).toEqual({
      _tag: "serial",
      path: adapter,
      baudRate: 19200,
      dataBits: 8,
      parity: "none",
      stopBits: 1
    })
  })

  it("opens a Colorado Time Systems console at its own 9600 8E1", async () => {
    expect((await sourceOf({ protocol: "colorado-cts", sport: "swimming", link: { serial: { path: adapter } } })).source).toEqual({
      _tag: "serial",
      path: adapter,
      baudRate: 9600,
      dataBits: 8,
      parity: "even",
      stopBits: 1
    })
  })

  it("opens the court's own framing when its serial: block gives one, else the console's, on the adapter itself", async () => {
    const body = { protocol: "fairplay-mp70", sport: "hockey", link: { serial: { path: adapter, baudRate: 2400, dataBits: 7, parity: "odd", stopBits: 2 } } }
    expect((await sourceOf(body)).source).toMatchObject({ baudRate: 2400, dataBits: 7, parity: "odd", stopBits: 2 })
    expect(await heldWhileListening(body)).toEqual({ speed: 2400, parodd: true, cstopb: true })
    // Colorado's even parity after odd on the same adapter: the sense is replaced, so a session opened 8N1 would show odd.
    const pool = { protocol: "colorado-cts", sport: "swimming", link: { serial: { path: adapter } } }
    expect(await heldWhileListening(pool)).toEqual({ speed: 9600, parodd: false, cstopb: false })
  })
})
