import { connect } from "node:net"
import { join } from "node:path"
import { SerialPort } from "serialport"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { openWriter, type PtyPair, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { byIdLink, startSteps, type Steps, useByIdDirectory, writeSetupConfig } from "./steps-support.ts"

/** A Stramatel 452 M on a basketball court, its TV output on an RS-485 adapter: here a socat pty behind a by-id name. */
const adapterName = "usb-1a86_USB_Serial-if00-port0"
const basketball = 0x33

let dir: string
let byId: string
let restoreById: () => void
let pty: PtyPair
let console_: PtyWriter | undefined
let steps: Steps

const listenBody = (path: string, extra: object = {}) => ({ protocol: "stramatel-452m", sport: "basketball", link: { serial: { path } }, ...extra })

interface Listening {
  readonly light: string
  readonly detail: string
  readonly reading: { readonly text: string; readonly home?: number; readonly away?: number; readonly period?: number; readonly clock?: string } | null
  readonly bytes: number
  readonly frames: number
  readonly badFrames: number
}

const listen = async (session = "browser-1", body: unknown = listenBody(join(byId, adapterName))) => {
  const reply = await steps.call("POST", "/api/listen", { body, session })
  expect(reply.status, JSON.stringify(reply.json)).toBe(200)
  return (reply.json as { id: string }).id
}

const look = async (id: string, session = "browser-1") => {
  const reply = await steps.call("GET", `/api/listen/${id}`, { session })
  return reply.status === 200 ? (reply.json as Listening) : undefined
}

/** The console repeating its state, one frame per look, until the page shows what `until` wants. */
const sendUntil = (what: string, id: string, bytes: Uint8Array, until: (view: Listening) => boolean) => {
  console_ ??= openWriter(pty.writerPath)
  return eventually(what, async () => {
    console_!.write(bytes)
    const view = await look(id)
    return view !== undefined && until(view) ? view : undefined
  })
}

beforeAll(() => {
  dir = tempDir("setup-steps-listen")
  byId = join(dir, "by-id")
  restoreById = useByIdDirectory(byId)
})

afterAll(() => restoreById())

beforeEach(async () => {
  pty = await startPtyPair(dir, `tty-${Date.now()}`)
  byIdLink(byId, adapterName, pty.daemonPath)
  writeSetupConfig(dir, daemonConfig({ service: { baseUrl: "http://127.0.0.1:9/" }, places: [] }))
  steps = await startSteps(dir)
})

afterEach(async () => {
  console_?.close()
  console_ = undefined
  await steps.close()
  await pty.stop()
  const { rmSync } = await import("node:fs")
  rmSync(byId, { recursive: true, force: true })
})

describe("listening to a Stramatel console on a serial adapter", () => {
  it("goes LIVE and shows the reading as the board shows it", async () => {
    const id = await listen()
    const opened = await look(id)
    expect(opened).toMatchObject({ light: "NO DATA", detail: "port open, waiting for the first valid frame", reading: null, bytes: 0 })
    const live = await sendUntil("the light to go LIVE", id, frame(basketball, { home: 12, away: 10, period: 2, clock: "4:31" }), (v) => v.light === "LIVE")
    expect(live.detail).toBe("frames arriving")
    expect(live.reading).toMatchObject({ home: 12, away: 10, period: 2, clock: "4:31", text: "12–10 · period 2 · 4:31" })
    expect(live.frames).toBeGreaterThan(0)
    expect(live.badFrames).toBe(0)
    const later = await sendUntil("the next score", id, frame(basketball, { home: 14, away: 10, period: 2, clock: "4:02" }), (v) => v.reading?.home === 14)
    expect(later.reading?.text).toBe("14–10 · period 2 · 4:02")
  })

  it("says DISCONNECTED with the reason when the adapter is pulled out", async () => {
    const id = await listen()
    await sendUntil("LIVE", id, frame(basketball, { home: 1, away: 0, period: 1 }), (v) => v.light === "LIVE")
    console_!.close()
    console_ = undefined
    await pty.unplug()
    let last: unknown
    const down = await eventually("DISCONNECTED", async () => {
      const view = await look(id)
      last = view
      return view?.light === "DISCONNECTED" ? view : undefined
    }).catch((e) => { throw new Error(`${e}: ${JSON.stringify(last)}`) })
    expect(down.detail).toMatch(/port (lost|closed|error)|device path gone/u)
    // What the board last showed stays on the page.
    expect(down.reading?.text).toBe("1–0 · period 1")
  })

  it("offers only by-id names: a /dev/tty path is refused before anything opens", async () => {
    const reply = await steps.call("POST", "/api/listen", { body: listenBody(pty.daemonPath) })
    expect(reply.status).toBe(400)
    expect((reply.json as { error: string }).error).toMatch(/is not a serial adapter of \/dev\/serial\/by-id/u)
  })

  it("refuses a console, sport or options the adapter would not take, naming what is wrong", async () => {
    const path = join(byId, adapterName)
    const refused = async (body: unknown) => {
      const reply = await steps.call("POST", "/api/listen", { body })
      expect(reply.status).toBe(400)
      return (reply.json as { error: string }).error
    }
    expect(await refused(listenBody(path, { protocol: "stramatel-999" }))).toMatch(/no console protocol "stramatel-999"/u)
    expect(await refused(listenBody(path, { sport: "curling" }))).toMatch(/does not read curling/u)
    expect(await refused(listenBody(path, { options: { sportCodes: { "0x36": "chess" } } }))).toMatch(/^options/u)
  })

  it("keeps one session per browser: a new one replaces the old and may open the same adapter", async () => {
    const first = await listen()
    const second = await listen()
    expect(await look(first)).toBeUndefined()
    await sendUntil("the new session LIVE", second, frame(basketball, { home: 3, away: 3, period: 1 }), (v) => v.light === "LIVE")
    // Another browser session sees none of it.
    expect((await steps.call("GET", `/api/listen/${second}`, { session: "browser-2" })).status).toBe(404)
    expect((await steps.call("DELETE", `/api/listen/${second}`)).status).toBe(200)
    expect(await look(second)).toBeUndefined()
  })

  it("answers 409 naming the place when the daemon holds the adapter", async () => {
    const path = join(byId, adapterName)
    writeSetupConfig(dir, daemonConfig({
      service: { baseUrl: "http://127.0.0.1:9/" },
      places: [{ key: "court-2", sport: "basketball", scoreboard: { protocol: "stramatel-452m", serial: { path } } }]
    }))
    // The daemon's port: opened with the same lock serialport takes.
    const daemon = new SerialPort({ path, baudRate: 19200, autoOpen: false })
    await new Promise<void>((resolve, reject) => daemon.open((error) => (error ? reject(error) : resolve())))
    try {
      const reply = await steps.call("POST", "/api/listen", { body: listenBody(path) })
      expect(reply.status).toBe(409)
      expect((reply.json as { error: string }).error).toMatch(/running daemon \(place court-2 scoreboard\)/u)
      // The page shows that court's light from the daemon: the key as data, not read out of the words.
      expect((reply.json as { place?: string }).place).toBe("court-2")
    } finally {
      await new Promise<void>((resolve) => daemon.close(() => resolve()))
    }
    // Once the daemon lets go, listening works.
    await listen()
  })

  it("closes a session nobody asks about, and every session when the server stops", async () => {
    await steps.close()
    steps = await startSteps(dir, { listenIdleMs: 300 })
    const id = await listen()
    // Asking would keep it open: another browser tries the same adapter until it is free (409 meanwhile).
    const refusals: Array<string> = []
    const other = await eventually("the unasked session to close and free its adapter", async () => {
      const reply = await steps.call("POST", "/api/listen", { body: listenBody(join(byId, adapterName)), session: "browser-2" })
      if (reply.status === 200) return (reply.json as { id: string }).id
      refusals.push(`${reply.status} ${(reply.json as { error: string }).error}`)
      return undefined
    })
    expect(refusals[0]).toMatch(/^409 in use by another browser's listening step/u)
    expect(await look(id)).toBeUndefined()
    await steps.close()
    steps = await startSteps(dir)
    expect(await look(other, "browser-2")).toBeUndefined()
    await listen("browser-3")
  })

  it("over the network: DISCONNECTED until the console connects to the listener, then LIVE", async () => {
    const port = await freePort()
    const id = await listen("browser-1", { protocol: "stramatel-452m", sport: "basketball", link: { tcp: { listen: `127.0.0.1:${port}` } } })
    expect(await look(id)).toMatchObject({ light: "DISCONNECTED", detail: `waiting for the console to connect to 127.0.0.1:${port}: check the console's network output (this machine's address and port)` })
    // A serial-to-Ethernet converter at the console, configured to connect to the bridge.
    const converter = connect({ host: "127.0.0.1", port })
    try {
      const live = await eventually("LIVE over TCP", async () => {
        converter.write(frame(basketball, { home: 7, away: 9, period: 3 }))
        const view = await look(id)
        return view?.light === "LIVE" ? view : undefined
      })
      expect(live.reading?.text).toBe("7–9 · period 3")
    } finally {
      converter.destroy()
    }
    await eventually("DISCONNECTED once the console hangs up", async () => ((await look(id))?.light === "DISCONNECTED" ? true : undefined))
  })
})
