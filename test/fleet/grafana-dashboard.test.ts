import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { faultDaemon, type FaultDaemon } from "../../scripts/support/fault-daemon.ts"
import { daemonConfig, jsonCourtOverMqtt, type PlaceConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { type InstantResult, type Prometheus, startPrometheus } from "../support/prometheus.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The fleet's Grafana dashboard (deploy/grafana/scorebridge-fleet.json), proved without Grafana:
 * two venues' daemons run as processes against the simulator, each with its own broker, a real
 * Prometheus scrapes both every second, and every query of every panel is run through
 * Prometheus's HTTP API with the dashboard's variables substituted as Grafana would. A query that
 * errors fails the test, and so does one that returns nothing (or only NaN) where the venues'
 * series hold its data: with both venues reporting, or, for the panels that list what is wrong
 * with the fleet, once one venue has stopped reporting.
 *
 * The venues make every series the panels read: lyon-centre has a camera that delivers
 * (court-1, two clips) and one that is off (court-2: a click without a clip, the problem line),
 * and a 429 on a score entry; nantes-nord has a court with a scoreboard (hall-1: a rejected frame,
 * two clips) and one whose event runs while no scoreboard data came (hall-2: not LIVE), and its
 * broker restarts (link drops).
 */
const dashboardFile = join(import.meta.dirname, "../../deploy/grafana/scorebridge-fleet.json")
const metricsSource = join(import.meta.dirname, "../../src/status/metric-catalogue.ts")

interface Target {
  readonly refId?: string
  readonly expr?: string
  readonly datasource?: { readonly type?: string; readonly uid?: string }
  readonly instant?: boolean
}

interface Panel {
  readonly id?: number
  readonly type?: string
  readonly title?: string
  readonly gridPos?: { readonly h: number; readonly w: number; readonly x: number; readonly y: number }
  readonly datasource?: { readonly type?: string; readonly uid?: string }
  readonly targets?: ReadonlyArray<Target>
  readonly panels?: ReadonlyArray<Panel>
  readonly collapsed?: boolean
}

interface Variable {
  readonly name: string
  readonly type: string
  readonly query?: string | { readonly query?: string }
  readonly definition?: string
  readonly multi?: boolean
  readonly includeAll?: boolean
  readonly allValue?: string
}

interface Dashboard {
  readonly uid?: string
  readonly title?: string
  readonly schemaVersion?: number
  readonly panels: ReadonlyArray<Panel>
  readonly templating: { readonly list: ReadonlyArray<Variable> }
}

const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as Dashboard

/** Every panel, those inside collapsed rows too. */
const allPanels = (panels: ReadonlyArray<Panel>): ReadonlyArray<Panel> =>
  panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])])

const variable = (name: string): Variable => {
  const found = dashboard.templating.list.find((v) => v.name === name)
  if (found === undefined) throw new Error(`the dashboard has no variable ${name}`)
  return found
}

const variableQuery = (v: Variable): string => (typeof v.query === "string" ? v.query : v.query?.query ?? v.definition ?? "")

/** Grafana's global variables, as an instant query over the last hour at a 1 s scrape sees them. */
const builtins: Readonly<Record<string, string>> = {
  __rate_interval: "1m",
  __interval: "15s",
  __interval_ms: "15000",
  __range: "1h",
  __range_s: "3600",
  __range_ms: "3600000"
}

/** `$name`, `${name}`, `${name:format}` and `[[name]]`, replaced; an unknown name throws. */
const substitute = (expr: string, values: Readonly<Record<string, string>>): string =>
  expr.replace(/\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)/gu, (_, braced?: string, bracketed?: string, bare?: string) => {
    const name = braced ?? bracketed ?? bare ?? ""
    const value = values[name] ?? builtins[name]
    if (value === undefined) throw new Error(`unknown variable $${name} in ${expr}`)
    return value
  })

/** How Grafana writes a multi-value selection into a Prometheus regex. */
const multiValue = (values: ReadonlyArray<string>): string =>
  values.length === 1 ? values[0]! : `(${values.map((v) => v.replace(/[\\^$.|?*+()[\]{}]/gu, "\\$&")).join("|")})`

interface Query {
  readonly panel: string
  readonly refId: string
  readonly expr: string
}

const queries: ReadonlyArray<Query> = allPanels(dashboard.panels).flatMap((panel) =>
  (panel.targets ?? []).map((t) => ({ panel: panel.title ?? `panel ${panel.id}`, refId: t.refId ?? "?", expr: t.expr ?? "" })))

describe("the fleet's Grafana dashboard", () => {
  it("has the shape Grafana provisions: ids, grid positions, targets with refIds on the datasource variable", () => {
    expect(dashboard.uid).toBe("scorebridge-fleet")
    expect(dashboard.title).toEqual(expect.any(String))
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36)

    const datasource = variable("datasource")
    expect(datasource).toMatchObject({ type: "datasource", query: "prometheus" })
    const venue = variable("venue")
    expect(venue).toMatchObject({ type: "query", multi: true, includeAll: true })
    expect(variableQuery(venue)).toBe("label_values(scorebridge_bridge_info, venue)")
    const place = variable("place")
    expect(place).toMatchObject({ type: "query", multi: true, includeAll: true })
    expect(variableQuery(place)).toBe(`label_values(scorebridge_place_live{venue=~"$venue"}, place)`)

    const panels = allPanels(dashboard.panels)
    const problems: Array<string> = []
    const ids = new Set<number>()
    const titles = new Set<string>()
    for (const panel of panels) {
      const name = `${panel.title ?? "(untitled)"} (id ${panel.id})`
      if (typeof panel.id !== "number" || !Number.isInteger(panel.id)) problems.push(`${name}: no integer id`)
      else if (ids.has(panel.id)) problems.push(`${name}: id used twice`)
      else ids.add(panel.id)
      if (typeof panel.title !== "string" || panel.title === "") problems.push(`${name}: no title`)
      else if (titles.has(panel.title)) problems.push(`${name}: title used twice`)
      else titles.add(panel.title)
      const grid = panel.gridPos
      if (grid === undefined || ![grid.h, grid.w, grid.x, grid.y].every((n) => Number.isInteger(n) && n >= 0) || grid.w < 1 || grid.h < 1 || grid.x + grid.w > 24) {
        problems.push(`${name}: gridPos ${JSON.stringify(grid)} is not inside the 24-column grid`)
      }
      if (panel.type === "row") {
        if ((panel.targets ?? []).length > 0) problems.push(`${name}: a row with targets`)
        continue
      }
      if (panel.datasource?.type !== "prometheus" || panel.datasource.uid !== "${datasource}") problems.push(`${name}: datasource is not the datasource variable`)
      const targets = panel.targets ?? []
      if (targets.length === 0) problems.push(`${name}: no targets`)
      const refIds = new Set<string>()
      for (const target of targets) {
        if (typeof target.refId !== "string" || target.refId === "") problems.push(`${name}: a target without refId`)
        else if (refIds.has(target.refId)) problems.push(`${name}: refId ${target.refId} twice`)
        else refIds.add(target.refId)
        if (typeof target.expr !== "string" || target.expr.trim() === "") problems.push(`${name}: target ${target.refId} has no expr`)
        if (target.datasource !== undefined && target.datasource.uid !== "${datasource}") problems.push(`${name}: target ${target.refId} on another datasource`)
      }
    }
    // Panels of the open rows share one grid: none may cover another.
    const placed = panels.filter((p) => p.gridPos !== undefined)
    for (const [i, a] of placed.entries()) {
      for (const b of placed.slice(i + 1)) {
        const [p, q] = [a.gridPos!, b.gridPos!]
        if (p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h) problems.push(`${a.title} and ${b.title} overlap`)
      }
    }
    expect(problems).toEqual([])
    expect(queries.length).toBeGreaterThan(20)
  })

  it("reads only metrics the bridge exports, and only variables it defines", () => {
    const source = readFileSync(metricsSource, "utf8")
    const exported = new Set([...source.matchAll(/"(scorebridge_[a-z_]+)"/gu)].map((m) => m[1]!))
    const defined = new Set([...dashboard.templating.list.map((v) => v.name), ...Object.keys(builtins)])
    const problems: Array<string> = []
    for (const query of [...queries, ...["venue", "place"].map((name) => ({ panel: `variable ${name}`, refId: "-", expr: variableQuery(variable(name)) }))]) {
      for (const [name] of query.expr.matchAll(/scorebridge_[a-z_]+/gu)) {
        const family = name.replace(/_(bucket|count|sum)$/u, "")
        if (!exported.has(name) && !exported.has(family)) problems.push(`${query.panel} ${query.refId}: ${name} is not in metric-catalogue.ts`)
      }
      for (const [, braced, bare] of query.expr.matchAll(/\$\{(\w+)[^}]*\}|\$(\w+)/gu)) {
        const name = braced ?? bare ?? ""
        if (!defined.has(name)) problems.push(`${query.panel} ${query.refId}: unknown variable $${name}`)
      }
    }
    expect(problems).toEqual([])
  })

  describe("against a real Prometheus scraping two venues", () => {
    const lyon = "lyon-centre"
    const nantes = "nantes-nord"
    const venues = [lyon, nantes]
    const courts: Readonly<Record<string, ReadonlyArray<string>>> = { [lyon]: ["court-1", "court-2"], [nantes]: ["hall-1", "hall-2"] }
    const releases: Array<() => unknown> = []
    let control: SimulatorControl
    let prometheus: Prometheus
    const daemons = new Map<string, FaultDaemon>()
    const publishers = new Map<string, MqttClient>()
    const eventKeys = new Map<string, string>()

    const scoreTopic = (place: string) => `fleet/${place}/score`
    const remoteTopic = (place: string) => `zigbee2mqtt/${place}-remote`

    const placeConfig = (key: string): PlaceConfig => jsonCourtOverMqtt(key, scoreTopic(key), `${key}-remote`)

    /** Prometheus holds a sample for `expr` now. */
    const holds = async (expr: string): Promise<boolean> => {
      const answer = await prometheus.query(expr)
      return answer.resultType === "vector" ? answer.result.length > 0 : answer.resultType === "scalar"
    }

    /** Waits until Prometheus holds every expr; on a timeout, says which it lacks and how the processes are. */
    const untilPrometheusHolds = async (what: string, exprs: ReadonlyArray<string>, timeoutMs = 20_000) => {
      let missing: ReadonlyArray<string> = exprs
      try {
        await eventually(what, async () => {
          const held = await Promise.all(exprs.map(holds))
          missing = exprs.filter((_, i) => !held[i])
          return missing.length === 0 ? true : undefined
        }, { timeoutMs, intervalMs: 250 })
      } catch (error) {
        const targets = (await prometheus.targets()).map((t) => `${t.scrapeUrl} ${t.health} ${t.lastError}`).join("\n")
        const tails = [...daemons].map(([venue, d]) => `--- ${venue}\n${d.tail(15)}`).join("\n")
        throw new Error(`${(error as Error).message}; missing:\n${missing.join("\n")}\ntargets:\n${targets}\n${tails}`)
      }
    }

    const momentsAt = async (place: string): Promise<number> =>
      (await control.state()).events.find((e) => e.key === eventKeys.get(place))?.moments.length ?? 0

    /** A press on the court's remote, returned once the simulator holds its moment (the click was accepted). */
    const press = async (venue: string, place: string) => {
      const before = await momentsAt(place)
      await publishers.get(venue)!.publishAsync(remoteTopic(place), JSON.stringify({ action: "single" }), { qos: 1 })
      await eventually(`the click of ${place} at the simulator`, async () => ((await momentsAt(place)) > before ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 })
    }

    const score = (venue: string, place: string, home: number, away: number) =>
      publishers.get(venue)!.publishAsync(scoreTopic(place), JSON.stringify({ score: { home, away }, quarter: 1 }), { qos: 1 })

    beforeAll(async () => {
      const dir = tempDir("grafana")
      releases.push(() => rmSync(dir, { recursive: true, force: true }))
      const tokens: Readonly<Record<string, string>> = { [lyon]: `lyon-token-${process.pid}`, [nantes]: `nantes-token-${process.pid}` }
      const sim = await startSimulator({
        port: 0, requestsPerSecond: 20, burst: 1, clipDelayMs: 500,
        seed: {
          organizations: venues.map((venue) => ({
            key: venue, name: venue, tokens: [tokens[venue]!],
            places: courts[venue]!.map((key) => ({ key, name: key, sport: "basketball" }))
          }))
        }
      })
      releases.push(() => sim.close())
      control = new SimulatorControl(sim.url)
      for (const place of Object.values(courts).flat()) {
        eventKeys.set(place, (await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: `${place} match` })).eventKey)
      }
      // court-2's cameras are off: its click makes no clip.
      await control.setCameras("court-2", false)
      // The service answers court-1's first score entry 429, whichever path the entry takes.
      await control.injectFault({ kind: "status", status: 429, pathPrefix: "/public/places/court-1/score" })
      await control.injectFault({ kind: "status", status: 429, pathPrefix: `/public/events/${eventKeys.get("court-1")}/score` })

      const listens = new Map<string, string>()
      const brokers = new Map<string, Mosquitto>()
      for (const venue of venues) {
        mkdirSync(join(dir, venue, "broker"), { recursive: true })
        mkdirSync(join(dir, venue, "state"))
        const broker = await startMosquitto(join(dir, venue, "broker"))
        releases.push(() => broker.stop())
        brokers.set(venue, broker)
        const listen = `127.0.0.1:${await freePort()}`
        listens.set(venue, listen)
        const configFile = writeConfig(join(dir, venue, "scorebridge.yaml"), daemonConfig({
          venue,
          service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
          stateDirectory: join(dir, venue, "state"),
          status: { listen },
          log: { level: "info" },
          // lyon's problem line shows from the first click without a clip.
          clips: { firstReadSeconds: 1, noClipAfterSeconds: 10, ...(venue === lyon ? { problemAfterClicks: 1 } : {}) },
          mqtt: { url: broker.url, clientId: `grafana-${venue}-${process.pid}` },
          buttons: courts[venue]!.map((place) => ({ name: `${place}-remote`, type: "zigbee2mqtt", mqtt: { topics: [remoteTopic(place)] } })),
          places: courts[venue]!.map(placeConfig)
        }))
        const daemon = faultDaemon(configFile, join(dir, venue, "daemon.log"), { SCOREBRIDGE_TOKEN: tokens[venue]! })
        releases.push(() => daemon.stop())
        daemons.set(venue, daemon)
      }

      const config = join(dir, "prometheus.yml")
      writeFileSync(config, [
        "global:",
        "  scrape_interval: 1s",
        "  scrape_timeout: 1s",
        "scrape_configs:",
        "  - job_name: scorebridge",
        // As the venues' agents scrape (deploy/prometheus/agent.yml).
        "    honor_labels: true",
        "    static_configs:",
        `      - targets: [${venues.map((v) => `"${listens.get(v)}"`).join(", ")}]`,
        ""
      ].join("\n"))
      prometheus = await startPrometheus(config)
      releases.push(() => prometheus.stop())

      for (const daemon of daemons.values()) daemon.start()
      await Promise.all([...daemons.values()].map((d) => d.waitForLog(/MQTT connected/)))
      // nantes's broker restarts: its links drop and come back.
      const nantesDaemon = daemons.get(nantes)!
      const from = nantesDaemon.logs().length
      await brokers.get(nantes)!.restart()
      await nantesDaemon.waitForLog(/MQTT connected/, { from })

      for (const venue of venues) {
        const publisher = await connectAsync(brokers.get(venue)!.url, { clientId: `grafana-peer-${venue}-${process.pid}`, clean: true })
        releases.push(() => publisher.endAsync(true))
        publishers.set(venue, publisher)
      }
    }, 40_000)

    afterAll(async () => {
      while (releases.length > 0) await releases.pop()!()
    }, 30_000)

    it("lists both venues in the venue variable, and their courts in the court variable", async () => {
      // label_values(<selector>, <label>) is Grafana's /api/v1/label/<label>/values?match[]=<selector>.
      const valuesOf = async (name: string, values: Readonly<Record<string, string>>) => {
        const parsed = /^label_values\((?:(.+),\s*)?(\w+)\)$/u.exec(variableQuery(variable(name)))
        if (parsed === null) throw new Error(`variable ${name}: not a label_values query`)
        const [, selector, label] = parsed
        return [...(await prometheus.labelValues(label!, selector === undefined ? [] : [substitute(selector, values)]))].sort()
      }
      await untilPrometheusHolds("every court's series", venues.map((v) => `count(scorebridge_place_live{venue="${v}"}) == 2`))
      expect(await valuesOf("venue", {})).toEqual(venues)
      expect(await valuesOf("place", { venue: multiValue(venues) })).toEqual([...courts[lyon]!, ...courts[nantes]!].sort())
      expect(await valuesOf("place", { venue: multiValue([nantes]) })).toEqual([...courts[nantes]!])
    })

    it("answers every panel's query with data while both venues report, and the quiet-venue panels once one stops", async () => {
      // Scores on three courts; hall-2 never gets one (its event runs, it is not LIVE). A frame
      // that does not decode at hall-1, then a good one.
      for (const [venue, place] of [[lyon, "court-1"], [lyon, "court-2"], [nantes, "hall-1"]] as const) await score(venue, place, 0, 0)
      await publishers.get(nantes)!.publishAsync(scoreTopic("hall-1"), "not json", { qos: 1 })
      await score(nantes, "hall-1", 2, 0)
      await score(lyon, "court-1", 3, 0)

      // One click on the dark court; two on each court with a camera, the second once Prometheus
      // holds the first's figures (a rate over a series needs it to grow between scrapes).
      await press(lyon, "court-2")
      await Promise.all([press(lyon, "court-1"), press(nantes, "hall-1")])
      await untilPrometheusHolds("the first clips at Prometheus", ["court-1", "hall-1"].flatMap((place) => [
        `scorebridge_clips_total{place="${place}", outcome="clip_ready"}`,
        `scorebridge_press_to_clip_seconds_count{place="${place}"}`,
        `scorebridge_delivery_latency_seconds_count{place="${place}", kind="click"}`
      ]))
      await Promise.all([press(lyon, "court-1"), press(nantes, "hall-1")])
      await score(lyon, "court-1", 5, 0)
      await score(nantes, "hall-1", 2, 3)

      await untilPrometheusHolds("every outcome of the scenario at Prometheus", [
        `scorebridge_clips_total{venue="${lyon}", place="court-1", outcome="clip_ready"} >= 2`,
        `scorebridge_clips_total{venue="${nantes}", place="hall-1", outcome="clip_ready"} >= 2`,
        `scorebridge_press_to_clip_seconds_count{place=~"court-1|hall-1"} >= 2`,
        `scorebridge_clips_total{venue="${lyon}", place="court-2", outcome="no_clip"}`,
        `scorebridge_clicks_without_clip{venue="${lyon}", place="court-2"} > 0`,
        `scorebridge_delivery_retries_total{venue="${lyon}", reason="rate_limited"}`,
        `scorebridge_link_drops_total{venue="${nantes}"}`,
        `scorebridge_bad_frames_total{venue="${nantes}", place="hall-1"}`,
        `scorebridge_event_running{venue="${nantes}", place="hall-2"} == 1`,
        `scorebridge_place_live{venue="${nantes}", place="hall-2"} == 0`
      ], 30_000)
      // Two more scrapes of both venues: the last outcomes have a sample before and after.
      const heldAt = Date.now() / 1000
      await untilPrometheusHolds("two more scrapes", [`count(timestamp(scorebridge_bridge_info) > ${heldAt + 2}) == 2`])

      const all = { datasource: "", venue: multiValue(venues), place: ".*" }
      const run = async (query: Query) => {
        const expr = substitute(query.expr, all)
        try {
          return { query, expr, answer: await prometheus.query(expr) }
        } catch (error) {
          return { query, expr, error: (error as Error).message }
        }
      }
      const empty = (answer: InstantResult) =>
        answer.resultType === "vector"
          ? answer.result.every((s) => Number.isNaN(Number(s.value[1])))
          : answer.resultType === "matrix" && answer.result.length === 0
      const show = (r: { query: Query; expr: string }) => `${r.query.panel} [${r.query.refId}]: ${r.expr}`

      const first = await Promise.all(queries.map(run))
      expect(first.filter((r) => r.error !== undefined).map((r) => `${show(r)}\n  ${r.error}`), "queries that Prometheus rejects").toEqual([])
      const quiet = first.filter((r) => r.answer !== undefined && empty(r.answer))

      const valueOf = async (title: string) => {
        const query = queries.find((q) => q.panel === title)
        if (query === undefined) throw new Error(`no panel titled ${title}`)
        const answer = (await run(query)).answer
        return answer?.resultType === "vector" ? answer.result.map((s) => Number(s.value[1])) : []
      }
      expect(await valueOf("Venues reporting")).toEqual([2])
      expect(await valueOf("Venues not reporting")).toEqual([0])
      // hall-2 at least: its event runs and no scoreboard data came.
      const notLive = await valueOf("Courts not LIVE while their event runs")
      expect(notLive).toHaveLength(1)
      expect(notLive[0]).toBeGreaterThanOrEqual(1)

      // nantes-nord stops: its series go stale at the next failed scrape.
      await daemons.get(nantes)!.stop()
      await eventually("nantes-nord's series to go stale", async () => ((await holds(`scorebridge_bridge_info{venue="${nantes}"}`)) ? undefined : true), { timeoutMs: 10_000, intervalMs: 250 })
      const second = await Promise.all(quiet.map((r) => run(r.query)))
      const stillEmpty = second.filter((r) => r.error !== undefined || r.answer === undefined || empty(r.answer))
      expect(stillEmpty.map(show), "queries that return nothing although the venues' series hold their data").toEqual([])
      expect(await valueOf("Venues not reporting")).toEqual([1])
      const gone = await run(queries.find((q) => q.panel === "Venues gone quiet")!)
      expect(gone.answer?.resultType === "vector" ? gone.answer.result.map((s) => s.metric["venue"]) : []).toEqual([nantes])
    }, 60_000)
  })
})
