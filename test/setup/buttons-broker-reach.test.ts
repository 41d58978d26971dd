import { mkdirSync, writeFileSync } from "node:fs"
import { type AddressInfo, createServer, type Server, type Socket } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ButtonApi, startButtonApi } from "./buttons-harness.ts"

let api: ButtonApi | undefined
const servers: Array<{ server: Server; sockets: Array<Socket> }> = []
afterEach(async () => {
  await api?.close()
  api = undefined
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy()
    server.close()
  }
})

/** A listener on loopback that keeps what each client sends first: an MQTT CONNECT, with the login it carries. */
const recordingBroker = async () => {
  const received: Array<Buffer> = []
  const sockets: Array<Socket> = []
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on("data", (bytes) => received.push(bytes))
    socket.on("error", () => {})
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  servers.push({ server, sockets })
  return { url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => Buffer.concat(received).toString("latin1") }
}

const password = "s3cret-broker-pass"

/** The config's broker logs in as courtside-user with a password stored as a credential. */
const configWith = (dir: string, url: string) => {
  mkdirSync(join(dir, "credentials"), { recursive: true })
  writeFileSync(join(dir, "credentials", "mqtt-password"), `${password}\n`, { mode: 0o600 })
  return {
    service: { baseUrl: "https://service.invalid", token: { credential: "token" } },
    mqtt: { url, username: "courtside-user", password: { credential: "mqtt-password" } },
    places: [{ key: "court-1", sport: "basketball" }]
  }
}

const listen = (mqtt: object) => api!.call("POST", "/api/buttons/listen", { sources: { mqtt } })

describe("a button capture's broker", () => {
  it("is the config's, with its login, when the page names none or the config's URL (as the page shows it, password as ***)", async () => {
    const dir = tempDir("setup-buttons-broker-own")
    const own = await recordingBroker()
    api = await startButtonApi(dir, configWith(dir, own.url.replace("mqtt://", "mqtt://courtside-user:in-url@")))
    expect((await listen({})).status).toBe(200)
    await eventually("the config's broker to get the login", () => (own.received().includes(password) ? true : undefined))
    expect((await listen({ url: own.url.replace("mqtt://", "mqtt://courtside-user:***@") })).status).toBe(200)
    await eventually("the second capture's login", () => (own.received().split(password).length - 1 >= 2 ? true : undefined))
  })

  it("named by the page on another host or port gets none of the config's login: the secret follows its destination", async () => {
    const dir = tempDir("setup-buttons-broker-other")
    const own = await recordingBroker()
    const other = await recordingBroker()
    api = await startButtonApi(dir, configWith(dir, own.url))
    expect((await listen({ url: other.url.replace("127.0.0.1", "localhost") })).status).toBe(200)
    await eventually("the other broker to get a CONNECT", () => (other.received().includes("MQTT") ? true : undefined))
    expect(other.received()).not.toContain(password)
    expect(other.received()).not.toContain("courtside-user")
    expect(own.received()).toBe("")
  })

  it("named by the page is only on this machine or the venue's network, and by its address", async () => {
    const dir = tempDir("setup-buttons-broker-far")
    api = await startButtonApi(dir, configWith(dir, "mqtt://127.0.0.1:1"))
    const far = await listen({ url: "mqtt://203.0.113.7:1883" })
    expect(far.status).toBe(400)
    expect((far.json as { error: string }).error).toBe("mqtt: 203.0.113.7 is not on a network this machine is on (nor loopback): the setup page reaches only the venue's own devices")
    const named = await listen({ url: "mqtts://broker.example.com:8883" })
    expect(named.status).toBe(400)
    expect((named.json as { error: string }).error).toMatch(/^mqtt: broker\.example\.com is a name: give the device's IP address/u)
  })
})
