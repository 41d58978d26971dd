import { Redacted } from "effect"
import { connectAsync } from "mqtt"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ConfiguredMosquitto, startConfiguredMosquitto } from "../support/configured-mosquitto.ts"
import { makeTestCa, type TestCa } from "../support/test-ca.ts"
import { endedAfterEach, startDaemon, text, untilSubscribed } from "./mqtt-harness.ts"

/**
 * mqtts:// against a real mosquitto with a TLS listener that asks for client certificates: the
 * socket the connection opens itself (src/transport/mqtt-socket.ts, given to mqtt.js as its stream
 * builder) checks the broker against the configured CA and shows the configured client
 * certificate; a broker signed by another CA is refused, and the link says why.
 */
let dir: string
let ca: TestCa
let broker: ConfiguredMosquitto
let url: string

beforeAll(async () => {
  dir = tempDir("mqtt-tls")
  const pki = join(dir, "pki")
  mkdirSync(pki)
  ca = makeTestCa(pki)
  const server = ca.server()
  const port = await freePort()
  url = `mqtts://127.0.0.1:${port}`
  broker = await startConfiguredMosquitto(dir, {
    port,
    main: [
      `listener ${port} 127.0.0.1`,
      `cafile ${ca.cert}`,
      `certfile ${server.cert}`,
      `keyfile ${server.key}`,
      "require_certificate true",
      "allow_anonymous true",
      "persistence false"
    ],
    confD: {}
  })
})
afterAll(async () => {
  await broker?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const { daemons, peers } = endedAfterEach()

const clientTls = (name: string, authority = ca) => {
  const pair = authority.client(name)
  return { ca: readFileSync(authority.cert, "utf8"), cert: readFileSync(pair.cert, "utf8"), key: readFileSync(pair.key, "utf8") }
}

const daemonOver = async (tls: ReturnType<typeof clientTls>) => {
  const daemon = await startDaemon({ url }, { tls: { ca: tls.ca, cert: tls.cert, key: Redacted.make(tls.key) } })
  daemons.push(daemon)
  return daemon
}

describe("MQTT over TLS (mqtts://)", () => {
  it("connects with the configured CA and client certificate, and carries a press", async () => {
    const daemon = await daemonOver(clientTls("venue-bridge"))
    daemon.subscribe(["venue/buttons/#"])
    await daemon.connected()
    const peer = await connectAsync(url, { ...clientTls("remote"), clientId: `tls-peer-${process.pid}`, clean: true })
    peers.push(peer)
    await untilSubscribed(peer, "venue/buttons/probe", daemon.received)
    await peer.publishAsync("venue/buttons/court1", "pressed", { qos: 1 })
    const press = await eventually("the press over TLS", () => daemon.received.find((m) => m.topic === "venue/buttons/court1"))
    expect(text(press)).toBe("pressed")
  })

  it("refuses a broker its CA did not sign, and the link says why", async () => {
    const otherPki = join(dir, "other-pki")
    mkdirSync(otherPki, { recursive: true })
    const other = makeTestCa(otherPki)
    // The client certificate is the right CA's (the broker would take it); only the trust is wrong.
    const tls = { ...clientTls("venue-bridge-2"), ca: readFileSync(other.cert, "utf8") }
    const daemon = await daemonOver(tls)
    const down = await eventually("the link to report the refused certificate", async () => {
      const state = await daemon.state()
      return state._tag === "disconnected" ? state : undefined
    })
    expect(down.reason).toMatch(/certificate/iu)
    expect(daemon.states.some((s) => s._tag === "connected")).toBe(false)
  })
})
