import { request as httpRequest } from "node:http"
import { hostname } from "node:os"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { statusHosts } from "../../src/status/status-hosts.ts"
import { resources } from "../scoreboard/harness.ts"
import { startStatusDaemon, type StatusDaemon } from "./status-daemon.ts"

/** One GET with the Host a browser would send for the name it opened: node:http, since fetch forbids setting Host. */
const getAs = (url: string, host: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname: address, port } = new URL(url)
    const req = httpRequest({ host: address, port, path, headers: { host } }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (body += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    req.on("error", reject)
    req.end()
  })

describe("the status page's Host wall (DNS rebinding)", () => {
  const res = resources()
  let daemon: StatusDaemon
  let port: string

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live"] })
    port = new URL(daemon.url).port
  }, 20_000)
  afterAll(() => res.release())

  it("refuses a page of another site whose name points at 127.0.0.1: 421 with words, for the page, /status.json and /metrics", async () => {
    for (const host of [`attacker.example:${port}`, `localhost.attacker.example:${port}`, "127.0.0.1", `127.0.0.1:${Number(port) + 1}`]) {
      for (const path of ["/", "/status.json", "/metrics", "/healthz", "/status.js", "/places/court-1/timeline.svg"]) {
        const answer = await getAs(daemon.url, host, path)
        expect(answer.status, `${host} ${path}`).toBe(421)
        expect(answer.body).toMatch(/^this status page answers only at its own addresses .*\(Host refused\)\n$/u)
        expect(answer.body).not.toContain("court-1")
      }
    }
  })

  it("answers at its listen address, localhost, [::1] and the machine's name, with the port", async () => {
    const name = hostname().toLowerCase()
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `${name}:${port}`, `${name}.local:${port}`]) {
      expect((await getAs(daemon.url, host, "/status.json")).status, host).toBe(200)
    }
  })

  it("serves its script and style as files, and its CSP allows nothing inline", async () => {
    const page = await getAs(daemon.url, `127.0.0.1:${port}`, "/")
    const csp = String(page.headers["content-security-policy"])
    expect(csp).not.toContain("unsafe-inline")
    expect(csp).toMatch(/script-src 'self'/u)
    expect(csp).toMatch(/style-src 'self'/u)
    expect(page.body).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/iu)
    const script = await getAs(daemon.url, `127.0.0.1:${port}`, "/status.js")
    expect([script.status, script.headers["content-type"]]).toEqual([200, "text/javascript; charset=utf-8"])
    expect(script.body).toContain(`fetch("status.json"`)
    const style = await getAs(daemon.url, `127.0.0.1:${port}`, "/status.css")
    expect([style.status, style.headers["content-type"]]).toEqual([200, "text/css; charset=utf-8"])
  })
})

describe("the Hosts the status page answers", () => {
  const interfaces = {
    lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
    eth0: [{ address: "192.168.1.20", family: "IPv4", internal: false }, { address: "fd00::20", family: "IPv6", internal: false }],
    wg0: [{ address: "10.8.0.12", family: "IPv4", internal: false }]
  } as unknown as Parameters<typeof statusHosts>[1]

  it("on one address: that address, loopback and the machine's name; not the machine's other addresses", () => {
    const hosts = statusHosts("10.8.0.12:8370", interfaces, "Venue-PC")
    expect([...hosts].sort()).toEqual(["10.8.0.12:8370", "127.0.0.1:8370", "[::1]:8370", "localhost:8370", "venue-pc.local:8370", "venue-pc:8370"])
  })

  it("on a wildcard: also each of the machine's own addresses, as a central Prometheus scrapes it", () => {
    for (const listen of ["0.0.0.0:8370", "[::]:8370"]) {
      const hosts = statusHosts(listen, interfaces, "venue-pc")
      for (const host of ["192.168.1.20:8370", "[fd00::20]:8370", "10.8.0.12:8370", "venue-pc.local:8370"]) expect(hosts.has(host), `${listen} ${host}`).toBe(true)
      expect(hosts.has("attacker.example:8370")).toBe(false)
    }
  })
})
