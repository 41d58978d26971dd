import { networkInterfaces } from "node:os"
import { connect, createServer } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { startSteps, type Steps } from "./steps-support.ts"

let steps: Steps | undefined
afterEach(async () => {
  await steps?.close()
  steps = undefined
})

const board = (link: object) => ({ protocol: "stramatel-452m", sport: "basketball", link })

const open = async (link: object) => steps!.call("POST", "/api/listen", { body: board(link) })

const errorOf = (reply: { readonly json?: unknown }) => (reply.json as { error: string }).error

/** This machine's first address that is not loopback (the venue's network), if it has one. */
const venueAddress = Object.values(networkInterfaces()).flat().find((info) => info !== undefined && !info.internal && info.family === "IPv4")?.address

/** Whether a TCP connection to host:port is taken. */
const reaches = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port })
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => (socket.destroy(), resolve(false)))
  })

const linkOf = async (id: string) => ((await steps!.call("GET", `/api/listen/${id}`)).json as { link: string }).link

describe("the listening step's network reach", () => {
  it("without --lan listens on loopback only: 0.0.0.0:PORT is bound as 127.0.0.1:PORT", async () => {
    steps = await startSteps(tempDir("setup-listen-reach"))
    const port = await freePort()
    const reply = await open({ tcp: { listen: `0.0.0.0:${port}` } })
    expect(reply.status, JSON.stringify(reply.json)).toBe(200)
    expect(await linkOf((reply.json as { id: string }).id)).toBe(`tcp listen 127.0.0.1:${port}`)
    expect(await reaches("127.0.0.1", port)).toBe(true)
    if (venueAddress !== undefined) expect(await reaches(venueAddress, port)).toBe(false)
  })

  it.skipIf(venueAddress === undefined)("with --lan listens where it is told, the venue's network too", async () => {
    steps = await startSteps(tempDir("setup-listen-reach-lan"), {}, true)
    const port = await freePort()
    const reply = await open({ tcp: { listen: `0.0.0.0:${port}` } })
    expect(reply.status, JSON.stringify(reply.json)).toBe(200)
    expect(await linkOf((reply.json as { id: string }).id)).toBe(`tcp listen 0.0.0.0:${port}`)
    await eventually("the venue's address to reach the listener", async () => ((await reaches(venueAddress!, port)) ? true : undefined))
    const elsewhere = await open({ udp: { listen: `203.0.113.7:${port}` } })
    expect(elsewhere.status).toBe(400)
    expect(errorOf(elsewhere)).toMatch(/203\.0\.113\.7 is not an address of this machine/u)
  })

  it("never binds a system port, and decodes the link with the config's own rules", async () => {
    steps = await startSteps(tempDir("setup-listen-reach-ports"), {}, true)
    for (const link of [{ tcp: { listen: "0.0.0.0:80" } }, { udp: { listen: "127.0.0.1:514" } }]) {
      const reply = await open(link)
      expect(reply.status).toBe(400)
      expect(errorOf(reply)).toMatch(/port (80|514) is below 1024, a system port/u)
    }
    const speed = await open({ serial: { path: "/dev/serial/by-id/usb-x", baudRate: 12345 } })
    expect(speed.status).toBe(400)
    expect(errorOf(speed)).toMatch(/link\.serial\.baudRate/u)
  })

  it("connects only to loopback or an address on the machine's own networks, never by name", async () => {
    steps = await startSteps(tempDir("setup-listen-reach-connect"))
    const far = await open({ tcp: { connect: "203.0.113.7:4001" } })
    expect(far.status).toBe(400)
    expect(errorOf(far)).toBe("203.0.113.7:4001: 203.0.113.7 is not on a network this machine is on (nor loopback): the setup page reaches only the venue's own devices")
    const named = await open({ tcp: { connect: "console.example.com:4001" } })
    expect(named.status).toBe(400)
    expect(errorOf(named)).toMatch(/console\.example\.com is a name: give the device's IP address/u)
    const converter = createServer((socket) => socket.on("error", () => {}))
    await new Promise<void>((listening) => converter.listen(0, "127.0.0.1", listening))
    try {
      const port = (converter.address() as { port: number }).port
      const near = await open({ tcp: { connect: `127.0.0.1:${port}` } })
      expect(near.status, JSON.stringify(near.json)).toBe(200)
    } finally {
      converter.close()
    }
  })
})
