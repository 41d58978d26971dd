import { type AddressInfo, createServer, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ConfiguredMosquitto, startConfiguredMosquitto } from "../support/configured-mosquitto.ts"
import { type ButtonApi, linkState, pollCapture, startButtonApi } from "./buttons-harness.ts"

let api: ButtonApi | undefined
let broker: ConfiguredMosquitto | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
  await broker?.stop()
  broker = undefined
})

const config = (url: string) => ({ service: { baseUrl: "https://service.invalid", token: { credential: "token" } }, mqtt: { url }, places: [{ key: "court-1", sport: "basketball" }] })

/** The connections the broker saw (mosquitto logs each at notice level). */
const connections = (log: string) => log.split("\n").filter((line) => line.includes("New connection from")).length

/** A broker that refuses every login: a client that is not ended for good tries again every 2 s. */
const refusingBroker = async (dir: string) => {
  const port = await freePort()
  return startConfiguredMosquitto(dir, { port, main: [`listener ${port} 127.0.0.1`, "allow_anonymous false"], confD: {} })
}

const waitForRetries = (what: string, atLeast: number) =>
  eventually(what, () => (connections(broker!.log()) >= atLeast ? true : undefined), { timeoutMs: 10_000 })

/** Long enough for two more attempts (a capture retries every 2 s): none may come. */
const noMoreAfter = async (seen: number) => {
  const until = Date.now() + 5_000
  await eventually("5 s to pass without a connection", () => {
    expect(connections(broker!.log())).toBe(seen)
    return Date.now() >= until ? true : undefined
  }, { timeoutMs: 10_000 })
}

describe("a button capture's broker connection ends with the capture", () => {
  it("DELETE ends it for good: a broker that refuses the login sees no connection after the delete", async () => {
    const dir = tempDir("setup-buttons-capture-end")
    broker = await refusingBroker(dir)
    api = await startButtonApi(dir, config(`mqtt://127.0.0.1:${broker.port}`))
    const started = await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {} } })
    const { id } = started.json as { id: string }
    await pollCapture(api, id, "the refused login to show", (reply) => linkState(reply, "mqtt") === "disconnected")
    await waitForRetries("a second attempt", 2)
    expect((await api.call("DELETE", `/api/buttons/listen/${id}`)).status).toBe(200)
    await noMoreAfter(connections(broker.log()))
  })

  it("the server's end ends it for good too", async () => {
    const dir = tempDir("setup-buttons-capture-end-server")
    broker = await refusingBroker(dir)
    api = await startButtonApi(dir, config(`mqtt://127.0.0.1:${broker.port}`))
    await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {} } })
    await waitForRetries("two attempts", 2)
    await api.close()
    api = undefined
    await noMoreAfter(connections(broker.log()))
  })
})

describe("a broker that takes the connection and never answers", () => {
  it("DELETE ends the capture's client for good: no connection comes after the delete, even once the login timed out", async () => {
    const taken: Array<Socket> = []
    const server = createServer((socket) => {
      taken.push(socket)
      socket.on("error", () => {})
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    try {
      const port = (server.address() as AddressInfo).port
      api = await startButtonApi(tempDir("setup-buttons-capture-silent"), config(`mqtt://127.0.0.1:${port}`))
      const started = await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {} } })
      const { id } = started.json as { id: string }
      await eventually("the capture to connect", () => (taken.length >= 1 ? true : undefined))
      expect((await api.call("DELETE", `/api/buttons/listen/${id}`)).status).toBe(200)
      // The client waits 10 s for the broker's answer, then would retry 2 s later.
      const until = Date.now() + 14_000
      await eventually("14 s to pass without a connection", () => {
        expect(taken.length).toBe(1)
        return Date.now() >= until ? true : undefined
      }, { timeoutMs: 20_000 })
    } finally {
      for (const socket of taken) socket.destroy()
      server.close()
    }
  }, 30_000)
})
