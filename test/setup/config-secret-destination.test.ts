import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http"
import { createServer as createTcpServer } from "node:net"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { freePort } from "../../scripts/support/free-port.ts"
import { journalPath } from "../../src/setup/config/change-journal.ts"
import { resources, type Resources } from "../support/resources.ts"
import { configBenchAt, json } from "./config-support.ts"
import { startSteps } from "./steps-support.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A secret follows its destination: a save that points service.baseUrl or mqtt.url at another
 * host drops the token or the broker login unless the same save gives them again. The "new host"
 * is a real listener on loopback that records what it is sent.
 */

const res = resources()
afterEach(() => res.release())

const token = "sbtok-Distinctive-7f3a9c21e0QX"
const brokerPassword = "brokerpw-Distinct-42"

/** An HTTP server on loopback that answers 404 and keeps every request's headers. */
const headerRecorder = async (res: Resources) => {
  const seen: Array<IncomingHttpHeaders> = []
  const server = createHttpServer((request, response) => {
    seen.push(request.headers)
    response.writeHead(404, { "content-type": "application/json" }).end("{}")
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  res.defer(() => new Promise((resolve) => server.close(resolve)))
  return { url: `http://127.0.0.1:${port}`, seen }
}

/** A TCP listener on loopback that keeps the first bytes of each connection (an MQTT CONNECT) and hangs up. */
const connectRecorder = async (res: Resources) => {
  const seen: Array<Buffer> = []
  const server = createTcpServer((socket) => {
    socket.once("data", (chunk) => {
      seen.push(chunk)
      socket.destroy()
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  res.defer(() => new Promise((resolve) => server.close(resolve)))
  return { url: `mqtt://127.0.0.1:${port}`, seen }
}

const venue = async (service: string, broker: string) => {
  const dir = tempDir("secret-destination", res)
  const passwordFile = join(dir, "broker-password")
  writeFileSync(passwordFile, `${brokerPassword}\n`, { mode: 0o600 })
  writeFileSync(join(dir, "config.yaml"), [
    "service:",
    `  baseUrl: ${service}`,
    "  token: { credential: token }",
    "  companyKey: riverside",
    "mqtt:",
    `  url: ${broker}`,
    "  username: venue-user",
    `  password: { file: ${passwordFile} }`,
    "status:",
    `  listen: 127.0.0.1:${await freePort()}`,
    "places:",
    "  - key: court-1",
    "    sport: basketball",
    "    scoreboard:",
    "      protocol: daktronics-rtd",
    "      serial: { path: /dev/ttyUSB0 }",
    ""
  ].join("\n"))
  const bench = configBenchAt(join(dir, "config.yaml"))
  const stored = await bench.call("POST", "/api/token", { token })
  expect(stored.status).toBe(200)
  const steps = await startSteps(dir)
  res.defer(() => steps.close())
  return { dir, bench, steps, credential: join(bench.environment.credentialsDirectory, "token") }
}

const saveWith = async (bench: Awaited<ReturnType<typeof venue>>["bench"], extra: Record<string, unknown>) => {
  const config = json(await bench.call("GET", "/api/config"))
  return bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "court-1", place: config.places[0], buttons: [], ...extra })
}

const authorizations = (seen: ReadonlyArray<IncomingHttpHeaders>) => seen.map((headers) => headers.authorization).filter((value) => value !== undefined)

describe("a secret follows its destination", () => {
  it("a new service address saved without the token drops it: the checks send no token to the new host", async () => {
    const [old, next, broker] = [await headerRecorder(res), await headerRecorder(res), await connectRecorder(res)]
    const { bench, steps, credential } = await venue(old.url, broker.url)

    const preview = json(await bench.call("POST", "/api/preview", { ...(await previewBody(bench)), service: { baseUrl: next.url } }))
    expect(preview.secrets.join(" ")).toMatch(/the token will be dropped because the service address changed/u)
    const saved = await saveWith(bench, { service: { baseUrl: next.url } })
    expect(saved.status).toBe(200)
    expect(json(saved).secrets.join(" ")).toMatch(/the token was dropped because the service address changed .* enter it again/u)
    const checks = (await steps.call("GET", "/api/checks")).json as { checks: ReadonlyArray<{ title: string; status: string }> }
    expect(authorizations(next.seen).filter((value) => value.includes(token))).toEqual([])
    expect(authorizations(old.seen)).toEqual([])
    expect(checks.checks.find((check) => check.title === "token")?.status).toBe("fail")
    expect(existsSync(credential)).toBe(false)
    expect(json(await bench.call("GET", "/api/config")).tokenStored).toBe(false)
    const journal = readFileSync(journalPath(bench.environment), "utf8").trim().split("\n").map((line) => JSON.parse(line))
    expect(journal.at(-1).change).toBe("place court-1 edited; token dropped (the service address changed)")
    expect(journal.at(-1).keys).toContain("credentials/token")
  }, 60_000)

  it("a new service address saved with the token stores it: the checks send that one to the new host", async () => {
    const [old, next, broker] = [await headerRecorder(res), await headerRecorder(res), await connectRecorder(res)]
    const { bench, steps, credential } = await venue(old.url, broker.url)
    const fresh = "sbtok-Fresh-for-the-new-host-99"
    const saved = await saveWith(bench, { service: { baseUrl: next.url }, token: ` ${fresh}\n` })
    expect(saved.status).toBe(200)
    expect(json(saved).secrets).toEqual([])
    expect(readFileSync(credential, "utf8")).toBe(`${fresh}\n`)
    for (const reply of bench.replies) expect(reply).not.toContain(fresh)

    await steps.call("GET", "/api/checks")
    expect(authorizations(next.seen).length).toBeGreaterThan(0)
    expect(authorizations(next.seen).every((value) => value === `Bearer ${fresh}`)).toBe(true)
  }, 60_000)

  it("a first setup: the token stored while the config names the placeholder service goes with the first real address", async () => {
    const service = await headerRecorder(res)
    const dir = tempDir("secret-destination-first", res)
    const bench = configBenchAt(join(dir, "config.yaml"))
    expect((await bench.call("POST", "/api/token", { token })).status).toBe(200)
    const place = { key: "court-1", sport: "basketball" }
    const saved = await bench.call("POST", "/api/save", { fingerprint: "absent", replaces: null, place, buttons: [], service: { baseUrl: service.url, companyKey: "riverside" } })
    expect(saved.status).toBe(200)
    expect(json(saved).secrets).toEqual([])
    expect(readFileSync(join(bench.environment.credentialsDirectory, "token"), "utf8")).toBe(`${token}\n`)

    const steps = await startSteps(dir)
    res.defer(() => steps.close())
    await steps.call("GET", "/api/checks")
    expect(authorizations(service.seen)).toContain(`Bearer ${token}`)
  }, 60_000)

  it("a config edited by hand to another service: the checks do not send the token entered on the page for the old one", async () => {
    const [old, next, broker] = [await headerRecorder(res), await headerRecorder(res), await connectRecorder(res)]
    const { bench, steps, credential } = await venue(old.url, broker.url)
    const path = bench.environment.configPath
    writeFileSync(path, readFileSync(path, "utf8").replace(old.url, next.url))

    const checks = (await steps.call("GET", "/api/checks")).json as { checks: ReadonlyArray<{ title: string; status: string; detail?: string }> }
    expect(authorizations(next.seen)).toEqual([])
    const tokenCheck = checks.checks.find((check) => check.title === "token")
    expect(tokenCheck?.status).toBe("fail")
    expect(tokenCheck?.detail).toBe(`the stored token was entered for ${old.url}, and the config now names ${next.url}: it is not sent there`)
    const places = await steps.call("GET", "/api/service-places")
    expect(places.status).toBe(409)
    expect(JSON.stringify(places.json)).toContain(`the stored token was entered for ${old.url}`)
    expect(authorizations(next.seen)).toEqual([])

    // A token set another way (scorebridge-set-token writes the file) is not held to the page's old address: the office's own edit.
    writeFileSync(credential, "sbtok-set-by-hand-5\n")
    await steps.call("GET", "/api/checks")
    expect(authorizations(next.seen)).toContain("Bearer sbtok-set-by-hand-5")
  }, 60_000)

  it("a new broker address saved without the login drops mqtt.username and password: the next CONNECT carries neither", async () => {
    const [service, old, next] = [await headerRecorder(res), await connectRecorder(res), await connectRecorder(res)]
    const { bench, steps } = await venue(service.url, old.url)
    const saved = await saveWith(bench, { mqtt: { url: next.url } })
    expect(saved.status).toBe(200)
    expect(json(saved).secrets.join(" ")).toMatch(/broker's username and password were dropped because the broker address changed/u)
    const text = readFileSync(bench.environment.configPath, "utf8")
    expect(text).not.toMatch(/username|password/u)
    expect(text).toContain(`url: ${next.url}`)

    await steps.call("GET", "/api/checks")
    expect(next.seen.length).toBeGreaterThan(0)
    for (const packet of next.seen) {
      expect(packet.includes(brokerPassword)).toBe(false)
      expect(packet.includes("venue-user")).toBe(false)
    }
  }, 60_000)

  it("a password in the broker URL: the page's redacted URL saved with another port keeps no password, and says the login was dropped", async () => {
    const [service, old, next] = [await headerRecorder(res), await connectRecorder(res), await connectRecorder(res)]
    const { bench, steps } = await venue(service.url, old.url.replace("mqtt://", "mqtt://inline:pw-Inline-77@"))
    const shown = json(await bench.call("GET", "/api/config")).mqtt.url
    expect(shown).toBe(old.url.replace("mqtt://", "mqtt://inline:***@"))
    const saved = await saveWith(bench, { mqtt: { url: shown.replace(old.url.slice(7), next.url.slice(7)) } })
    expect(json(saved).secrets.join(" ")).toMatch(/broker's username and password were dropped/u)
    const text = readFileSync(bench.environment.configPath, "utf8")
    expect(text).toContain(`url: ${next.url.replace("mqtt://", "mqtt://inline@")}`)
    expect(text).not.toContain("pw-Inline-77")
    expect(text).not.toContain("***")

    await steps.call("GET", "/api/checks")
    expect(next.seen.length).toBeGreaterThan(0)
    for (const packet of next.seen) expect(packet.includes("pw-Inline-77")).toBe(false)
  }, 60_000)

  it("a new broker address saved with its login keeps what the save gives; the same address keeps the file's", async () => {
    const [service, old, next] = [await headerRecorder(res), await connectRecorder(res), await connectRecorder(res)]
    const { bench } = await venue(service.url, old.url)
    const same = await saveWith(bench, { mqtt: { url: old.url } })
    expect(json(same).secrets).toEqual([])
    expect(readFileSync(bench.environment.configPath, "utf8")).toContain("username: venue-user")
    const saved = await saveWith(bench, { mqtt: { url: next.url, username: "bridge2", password: { env: "BROKER_PASSWORD" } } })
    expect(json(saved).secrets).toEqual([])
    const text = readFileSync(bench.environment.configPath, "utf8")
    expect(text).toContain("username: bridge2")
    expect(text).toContain("password: { env: BROKER_PASSWORD }")
  }, 60_000)
})

const previewBody = async (bench: Awaited<ReturnType<typeof venue>>["bench"]) => {
  const config = json(await bench.call("GET", "/api/config"))
  return { fingerprint: config.fingerprint, replaces: "court-1", place: config.places[0], buttons: [] }
}
