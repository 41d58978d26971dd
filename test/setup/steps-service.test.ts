import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { daemonConfig, type DaemonConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { startSteps, type Steps, writeSetupConfig } from "./steps-support.ts"

/** The organization the venue belongs to, as the service knows it. */
const token = "venue-token-5b8e2d41c9"
const seed = {
  organizations: [
    {
      key: "riverside",
      name: "Riverside Sports",
      tokens: [token],
      places: [{ key: "court-1", name: "Court 1", sport: "volleyball" }, { key: "rink", name: "Main rink", sport: "hockey" }]
    },
    { key: "elsewhere", name: "Elsewhere", tokens: ["other-token-77d1"], places: [{ key: "hall", name: "Hall", sport: "handball" }] }
  ]
}

let simulator: RunningSimulator
let dir: string
let steps: Steps
let listenPort: number

beforeAll(async () => {
  simulator = await startSimulator({ seed, requestsPerSecond: 50, burst: 50 })
})

afterAll(() => simulator.close())

beforeEach(async () => {
  dir = tempDir("setup-steps-service")
  mkdirSync(join(dir, "state"))
  listenPort = await freePort()
  steps = await startSteps(dir)
})

afterEach(async () => {
  await steps.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A venue config as the page saves it: the token in the credentials file, one court on a Stramatel console behind a serial-to-Ethernet converter that connects to the bridge. */
const venue = (service: Partial<DaemonConfig["service"]> = {}): DaemonConfig =>
  daemonConfig({
    service: { baseUrl: simulator.url, companyKey: "riverside", token: { credential: "token" }, ...service },
    stateDirectory: join(dir, "state"),
    places: [{ key: "court-1", sport: "volleyball", scoreboard: { protocol: "stramatel-452m", tcp: { listen: `127.0.0.1:${listenPort}` } } }]
  })

interface Check {
  readonly status: "ok" | "warn" | "fail"
  readonly title: string
  readonly detail?: string
  readonly fix?: string
  readonly skipped?: true
}

const checks = async () => {
  const reply = await steps.call("GET", "/api/checks")
  expect(reply.status).toBe(200)
  expect(JSON.stringify(reply.json)).not.toContain(token)
  return (reply.json as { checks: ReadonlyArray<Check> }).checks
}

const byTitle = (list: ReadonlyArray<Check>, title: string | RegExp) => list.find((c) => (typeof title === "string" ? c.title === title : title.test(c.title)))

describe("GET /api/service-places", () => {
  it("lists the organization's places with their sports, from the service", async () => {
    writeSetupConfig(dir, venue(), token)
    const reply = await steps.call("GET", "/api/service-places")
    expect(reply).toEqual({
      status: 200,
      json: { places: [{ key: "court-1", name: "Court 1", sport: "volleyball" }, { key: "rink", name: "Main rink", sport: "hockey" }] }
    })
  })

  it("says what to do when it cannot ask: no organization key, no token, a token the service refuses, the service down", async () => {
    const error = async (status: number) => {
      const reply = await steps.call("GET", "/api/service-places")
      expect(reply.status).toBe(status)
      const text = (reply.json as { error: string }).error
      expect(text).not.toContain(token)
      return text
    }
    const { companyKey: _key, ...withoutKey } = venue().service
    writeSetupConfig(dir, { ...venue(), service: withoutKey }, token)
    expect(await error(409)).toMatch(/organization key \(service.companyKey\) is not set/u)

    rmSync(join(dir, "credentials"), { recursive: true, force: true })
    writeSetupConfig(dir, venue())
    expect(await error(409)).toMatch(/no token .* enter the organization's API token/u)

    writeSetupConfig(dir, venue(), "revoked-token-0000")
    expect(await error(502)).toMatch(/check the organization key \("riverside"\) and the token/u)

    const closed = await freePort()
    writeSetupConfig(dir, venue({ baseUrl: `http://127.0.0.1:${closed}` }), token)
    expect(await error(502)).toMatch(/cannot be reached/u)
  })
})

describe("GET /api/checks", () => {
  it("runs doctor's checks on the config and the stored token", async () => {
    writeSetupConfig(dir, venue(), token)
    const list = await checks()
    expect(byTitle(list, /^config /u)).toMatchObject({ status: "ok" })
    expect(byTitle(list, "token")).toMatchObject({ status: "ok", detail: `accepted by ${simulator.url} (GET /public/sports)` })
    expect(byTitle(list, "place court-1")).toMatchObject({ status: "ok", detail: "exists (\"Court 1\", volleyball)" })
    expect(byTitle(list, "clock")?.status).toBe("ok")
    // The console's listen port is free for the daemon.
    expect(list.some((c) => c.status === "ok" && `${c.title} ${c.detail}`.includes(String(listenPort)))).toBe(true)
    expect(list.filter((c) => c.status === "fail")).toEqual([])
    // No broker in this config: doctor skips that check, the page shows it as not made.
    expect(byTitle(list, "MQTT broker")).toMatchObject({ status: "warn", skipped: true })
  })

  it("fails the token with what to do when none is stored, and still runs the checks that need none", async () => {
    writeSetupConfig(dir, venue())
    const list = await checks()
    const tokenCheck = byTitle(list, "token")
    expect(tokenCheck).toMatchObject({ status: "fail" })
    expect(tokenCheck?.fix).toMatch(/enter the organization's API token/u)
    expect(list.some((c) => `${c.title} ${c.detail}`.includes(String(listenPort)))).toBe(true)
    expect(byTitle(list, "place court-1")).toBeUndefined()
  })

  it("fails the token the service refuses, with doctor's advice", async () => {
    writeSetupConfig(dir, venue(), "other-token-77d1x")
    const tokenCheck = byTitle(await checks(), "token")
    expect(tokenCheck?.status).toBe("fail")
    expect(tokenCheck?.fix).toMatch(/current API token/u)
  })

  it("is one failed check naming the problem when the config does not load", async () => {
    writeFileSync(join(dir, "config.yaml"), "service:\n  baseUrl: https://api.example.com\nplaces: nope\n")
    const list = await checks()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ status: "fail", title: `config ${join(dir, "config.yaml")}` })
    expect(list[0]!.detail).toMatch(/places/u)
    expect(list[0]!.fix).toBeDefined()
  })
})
