import { rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { protocolNames, protocols } from "../../adapters/registry.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { byIdLink, startSteps, type Steps, useByIdDirectory, writeSetupConfig } from "./steps-support.ts"

let dir: string
let byId: string
let restoreById: () => void
let ptys: Array<PtyPair>
let steps: Steps

beforeAll(async () => {
  dir = tempDir("setup-steps-catalogue")
  byId = join(dir, "by-id")
  restoreById = useByIdDirectory(byId)
  ptys = [await startPtyPair(dir, "scoreboard"), await startPtyPair(dir, "buttons")]
  steps = await startSteps(dir)
})

afterAll(async () => {
  await steps.close()
  for (const pty of ptys) await pty.stop()
  restoreById()
  rmSync(dir, { recursive: true, force: true })
})

interface Console {
  readonly protocol: string
  readonly maker: string
  readonly model: string
  readonly wiring: string
  readonly links: ReadonlyArray<string>
  readonly serial: object
  readonly sports: ReadonlyArray<string>
  readonly learnable: boolean
  readonly example: string
}

describe("GET /api/consoles", () => {
  it("lists every console of the registry by maker and model, with its wiring note, from its own definition", async () => {
    const reply = await steps.call("GET", "/api/consoles")
    const consoles = (reply.json as { consoles: ReadonlyArray<Console> }).consoles
    expect(consoles.map((c) => c.protocol)).toEqual(protocolNames)
    for (const entry of consoles) {
      const definition = protocols[entry.protocol]!
      expect(entry).toMatchObject({
        maker: definition.maker,
        model: definition.model,
        wiring: definition.wiring,
        serial: definition.serialDefaults,
        sports: definition.sports,
        learnable: definition.learn !== undefined,
        example: definition.example
      })
      expect([...entry.links].sort()).toEqual(["serial", "tcp", "udp"])
    }
    const byName = new Map(consoles.map((c) => [c.protocol, c]))
    expect(byName.get("stramatel-452m")).toMatchObject({ maker: "Stramatel", model: "452 M", learnable: true })
    expect(byName.get("stramatel-452m")!.wiring).toMatch(/RS-485.*19200 baud/su)
    // Bodet's console connects over the network: that link first.
    expect(byName.get("bodet-scorepad")!.links[0]).toBe("tcp")
    expect(byName.get("bodet-scorepad")!.learnable).toBe(false)
    expect(byName.get("lines")).toMatchObject({ maker: "Other", model: "Line protocol (microcontroller, custom)", learnable: true })
  })
})

describe("GET /api/serial-ports", () => {
  it("offers the by-id names present, with the device behind each and who in the config reads it", async () => {
    const board = byIdLink(byId, "usb-1a86_USB_Serial-if00-port0", ptys[0]!.daemonPath)
    const remote = byIdLink(byId, "usb-Arduino_Nano_75833353035351F0E1A1-if00", ptys[1]!.daemonPath)
    const spare = byIdLink(byId, "usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0", ptys[0]!.writerPath)
    // Unplugged a moment ago: udev has not removed the link yet, there is nothing behind it.
    symlinkSync(join(dir, "gone"), join(byId, "usb-Prolific_PL2303-if00-port0"))
    writeSetupConfig(dir, daemonConfig({
      service: { baseUrl: "http://127.0.0.1:9/" },
      places: [{ key: "court-2", sport: "basketball", scoreboard: { protocol: "stramatel-452m", serial: { path: board } } }],
      buttons: [{ name: "bench-buttons", type: "serial-buttons", serial: { path: remote } }]
    }))
    const reply = await steps.call("GET", "/api/serial-ports")
    const { realpathSync } = await import("node:fs")
    expect(reply.json).toEqual({
      ports: [
        { path: board, device: realpathSync(ptys[0]!.daemonPath), usedBy: "place court-2 scoreboard" },
        { path: remote, device: realpathSync(ptys[1]!.daemonPath), usedBy: "button bench-buttons" },
        { path: spare, device: realpathSync(ptys[0]!.writerPath) }
      ].sort((a, b) => (a.path < b.path ? -1 : 1))
    })
    expect(realpathSync(ptys[0]!.daemonPath)).toMatch(/^\/dev\/pts\/\d+$/u)
  })

  it("offers none when no adapter is plugged in (udev removes the directory)", async () => {
    rmSync(byId, { recursive: true, force: true })
    expect((await steps.call("GET", "/api/serial-ports")).json).toEqual({ ports: [] })
  })
})
