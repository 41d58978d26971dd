import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { faultDaemon, type FaultDaemon } from "../../scripts/support/fault-daemon.ts"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type PtyPair, startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { type Engine, type Notified, processCost, query, rulesFile, startAgent, startAlertmanager, startCentral, startWebhook } from "../../scripts/support/fleet-engines.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The whole fleet path with real processes, on loopback: three venues (a daemon, its console on a
 * pty, its own simulated service) each with a Prometheus agent remote-writing to the office's
 * Prometheus, which evaluates the shipped rules and sends to a real Alertmanager, which posts to
 * the test's webhook. A console unplugged at one venue raises "court not LIVE" for that venue and
 * court only, and replugging resolves it; a token revoked at another raises the token alert there.
 */
interface Venue {
  readonly name: string
  readonly token: string
  readonly control: SimulatorControl
  readonly pty: PtyPair
  readonly daemon: FaultDaemon
  readonly statusUrl: string
  agent?: Engine
}

interface Rule { readonly alert?: string; readonly expr: string; readonly for?: string }
const rules = (parse(readFileSync(rulesFile, "utf8")) as { groups: ReadonlyArray<{ rules: ReadonlyArray<Rule> }> }).groups.flatMap((g) => g.rules)
/** The shipped rule that watches for `metric`: found by what it reads, so a renamed alert is still this one. */
const ruleReading = (metric: string): Rule => {
  const found = rules.filter((r) => r.alert !== undefined && r.expr.includes(metric))
  if (found.length !== 1) throw new Error(`expected one alert reading ${metric}, found ${found.map((r) => r.alert).join(", ") || "none"}`)
  return found[0]!
}
const seconds = (duration: string | undefined) => {
  const match = /^(\d+)([smh])$/u.exec(duration ?? "0s")
  return match === null ? 0 : Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as "s" | "m" | "h"]
}

const place = "court-1"
const line = (home: number) => `${home}-2 Q1 08:00\r\n`

describe("a fleet of three venues: agents, the office's Prometheus, its rules and Alertmanager", () => {
  const releases: Array<() => unknown> = []
  const venues: Array<Venue> = []
  let central: Engine
  let webhook: Awaited<ReturnType<typeof startWebhook>>
  let feeding: NodeJS.Timeout | undefined
  const scores = new Map<string, number>()

  beforeAll(async () => {
    const dir = tempDir("fleet")
    releases.push(() => rmSync(dir, { recursive: true, force: true }))
    webhook = await startWebhook()
    releases.push(() => webhook.stop())
    const alertmanager = await startAlertmanager(dir, webhook.url)
    releases.push(() => alertmanager.stop())
    central = await startCentral(dir, alertmanager.url)
    releases.push(() => central.stop())
    for (const name of ["lyon-centre", "nantes-sud", "lille-nord"]) {
      const token = `fleet-${name}-${process.pid}`
      const sim = await startSimulator({
        port: 0, requestsPerSecond: 20, burst: 1,
        seed: { organizations: [{ key: `${name}-org`, name, tokens: [token], places: [{ key: place, name: "Court 1", sport: "basketball" }] }] }
      })
      releases.push(() => sim.close())
      const control = new SimulatorControl(sim.url)
      await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: `${name} match` })
      const home = join(dir, name)
      mkdirSync(join(home, "state"), { recursive: true })
      const pty = await startPtyPair(home, "console")
      releases.push(() => pty.stop())
      const listen = `127.0.0.1:${await freePort()}`
      const config = writeConfig(join(home, "scorebridge.yaml"), daemonConfig({
        venue: name,
        service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
        stateDirectory: join(home, "state"),
        status: { listen, noDataAfterSeconds: 3 },
        log: { level: "info" },
        places: [{
          key: place, sport: "basketball",
          scoreboard: { protocol: "lines", serial: { path: pty.daemonPath }, options: { pattern: "^(?<home>\\d+)-(?<away>\\d+) Q(?<period>\\d+) (?<clock>\\S+)$" } }
        }]
      }))
      const daemon = faultDaemon(config, join(home, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
      releases.push(() => daemon.kill9())
      daemon.start()
      venues.push({ name, token, control, pty, daemon, statusUrl: `http://${listen}` })
      scores.set(name, 0)
    }
    // The consoles repeat their board twice a second, as real ones do.
    feeding = setInterval(() => {
      for (const venue of venues) {
        try {
          writeToPty(venue.pty.writerPath, line(scores.get(venue.name)!))
        } catch {
          // Unplugged: nothing to write to.
        }
      }
    }, 500)
    releases.push(() => clearInterval(feeding))
    for (const venue of venues) {
      await venue.daemon.waitForLog(/serial port connected/, { timeoutMs: 20_000 })
      venue.agent = await startAgent(dir, `agent-${venue.name}`, venue.statusUrl.replace("http://", ""), `${central.url}/api/v1/write`)
      releases.push(() => venue.agent?.stop())
    }
  }, 90_000)

  afterAll(async () => {
    while (releases.length > 0) await releases.pop()!()
  })

  const firing = (alert: string, venue: string, status: Notified["status"] = "firing") =>
    webhook.received.filter((n) => n.labels["alertname"] === alert && n.labels["venue"] === venue && n.status === status)

  it("every venue's series reach the office, each with its venue label, all courts LIVE with their match running", async () => {
    await eventually("three venues reporting, their courts live with an event", async () => {
      const live = await query(central.url, "scorebridge_place_live == 1 and on (venue, place) scorebridge_event_running == 1")
      return live.length === 3 ? live : undefined
    }, { timeoutMs: 45_000, intervalMs: 500 })
    const perVenue = await query(central.url, `count by (venue) ({__name__=~"scorebridge_.+", venue!=""})`)
    const series = Object.fromEntries(perVenue.map((r) => [r.metric["venue"], Number(r.value[1])]))
    console.log(`fleet: series per venue (one court each) ${JSON.stringify(series)}`)
    expect(Object.keys(series).sort()).toEqual(["lille-nord", "lyon-centre", "nantes-sud"])
    // Nothing of the bridge's reaches the office without its venue.
    expect(await query(central.url, `{__name__=~"scorebridge_.+", venue=""}`)).toEqual([])
  }, 60_000)

  it("an unplugged console raises 'court not LIVE' for that venue and court only, within the rule's for + intervals; replugging resolves it; a revoked token raises the token alert there only", async () => {
    const notLive = ruleReading("scorebridge_event_running")
    const token = ruleReading("scorebridge_token_suspended")
    const [lyon, nantes, lille] = venues as [Venue, Venue, Venue]
    const costBefore = venues.map((v) => processCost(v.agent!.child.process.pid!))
    const startedAt = Date.now()

    const unpluggedAt = Date.now()
    await nantes.pty.unplug()
    await lille.control.revokeToken(lille.token)
    // A new score at Lille: its entry meets the revoked token.
    scores.set(lille.name, 1)

    // Its `for`, plus a scrape, an evaluation, Alertmanager's group wait, and the time a dead serial port takes to show.
    const boundMs = (seconds(notLive.for) + 15) * 1000
    const raised = await eventually(`${notLive.alert} for nantes-sud`, async () => firing(notLive.alert!, nantes.name)[0], { timeoutMs: boundMs + 10_000, intervalMs: 250 })
    const delayMs = raised.at - unpluggedAt
    console.log(`fleet: unplug → ${notLive.alert} at the webhook in ${(delayMs / 1000).toFixed(1)} s (for: ${notLive.for ?? "0s"})`)
    expect(delayMs).toBeGreaterThanOrEqual(seconds(notLive.for) * 1000)
    expect(delayMs).toBeLessThanOrEqual(boundMs)
    expect(raised.labels["place"]).toBe(place)
    expect(`${raised.annotations["summary"] ?? ""} ${raised.annotations["description"] ?? ""}`).toContain("nantes-sud")

    const tokenAlert = await eventually(`${token.alert} for lille-nord`, async () => firing(token.alert!, lille.name)[0], { timeoutMs: (seconds(token.for) + 30) * 1000, intervalMs: 250 })
    expect(`${tokenAlert.annotations["summary"] ?? ""} ${tokenAlert.annotations["description"] ?? ""}`).toContain("lille-nord")

    await nantes.pty.replug()
    const resolved = await eventually(`${notLive.alert} resolved for nantes-sud`, async () => firing(notLive.alert!, nantes.name, "resolved")[0], { timeoutMs: 45_000, intervalMs: 250 })
    console.log(`fleet: replug → resolved at the webhook in ${((resolved.at - raised.at) / 1000).toFixed(1)} s after it fired`)

    // Nobody else was named: the other venues' courts stayed live, their tokens good.
    for (const other of [lyon.name, lille.name]) expect(firing(notLive.alert!, other)).toEqual([])
    for (const other of [lyon.name, nantes.name]) expect(firing(token.alert!, other)).toEqual([])
    expect(webhook.received.filter((n) => n.labels["venue"] === lyon.name)).toEqual([])

    // What an agent costs beside the bridge on a small box, over this test's minute and more.
    const spanS = (Date.now() - startedAt) / 1000
    const agents = venues.map((v, i) => {
      const now = processCost(v.agent!.child.process.pid!)
      return { rssMb: now.rssKb / 1024, cpuPct: (100 * (now.cpuSeconds - costBefore[i]!.cpuSeconds)) / spanS }
    })
    const bridges = venues.map((v) => v.daemon.rssKb() / 1024)
    console.log(`fleet: agent RSS ${agents.map((a) => a.rssMb.toFixed(1)).join(", ")} MB, CPU ${agents.map((a) => a.cpuPct.toFixed(1)).join(", ")} % ` +
      `(1 s scrapes; the shipped 30 s does ~1/30 the scrape work); bridge RSS ${bridges.map((b) => b.toFixed(1)).join(", ")} MB`)
    for (const agent of agents) expect(agent.rssMb).toBeLessThan(128)
  }, 240_000)
})
