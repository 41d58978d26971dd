import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { basketballLine, get, startStatusDaemon, type StatusDaemon, token } from "./status-daemon.ts"

const snapshotOf = async (daemon: StatusDaemon): Promise<StatusSnapshot> => JSON.parse((await get(`${daemon.url}/status.json`)).body)

/** Repeats the board's current line every 100 ms, as a console does, until stopped. */
const feed = (daemon: StatusDaemon) => {
  let line = basketballLine(0, 0)
  const timer = setInterval(() => daemon.scoreboard.write(line), 100)
  return { show: (next: string) => { line = next; daemon.scoreboard.write(next) }, stop: () => clearInterval(timer) }
}

const acceptedScores = async (daemon: StatusDaemon) =>
  (await daemon.control.requests({ method: "POST", pathPrefix: "/public/places/court-1/score", status: 200 })).length

describe("status over HTTP: one live court, one whose serial adapter is absent", () => {
  const res = resources()
  let daemon: StatusDaemon
  let board: ReturnType<typeof feed>
  let delivered = 0

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live", "absent"], venue: "lyon-centre" })
    board = feed(daemon)
    res.defer(() => board.stop())
    for (const [home, away] of [[2, 0], [2, 3], [4, 3]] as const) {
      board.show(basketballLine(home, away))
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    daemon.scoreboard.write("this is not a scoreboard line\r\n")
    await eventually("the bad line to be counted", async () => ((await snapshotOf(daemon)).places[0]!.decoder.badFrames > 0 ? true : undefined))
    // The three changes (a board at 0-0 from the start is no change).
    delivered = await eventually("three entries delivered", async () => {
      const count = await acceptedScores(daemon)
      return count >= 3 ? count : undefined
    }, { timeoutMs: 8_000 }).catch(async (e: Error) => {
      throw new Error(`${e.message}\n${daemon.logs.join("\n")}\n${(await get(`${daemon.url}/status.json`)).body}`)
    })
  }, 20_000)
  afterAll(() => res.release())

  it("/status.json shows court 1 LIVE with its last entry delivered, court 2 DISCONNECTED with the reason", async () => {
    const snapshot = await eventually("court 1 LIVE with a delivered entry", async () => {
      const s = await snapshotOf(daemon)
      return s.places[0]?.source.badge === "LIVE" && s.places[0].lastEntry?.answer.state === "delivered" ? s : undefined
    })
    const [court1, court2] = snapshot.places
    expect(court1!.lastReadingText).toBe("4–3 · period 1 · 09:58")
    expect(court1!.queue).toMatchObject({ score: 0, click: 0, undo: 0 })
    expect(court1!.event?.key).toEqual(expect.any(String))
    expect(court2!.source.badge).toBe("DISCONNECTED")
    expect(court2!.source.target).toContain("absent-court-2")
    expect(court2!.source.detail).toMatch(/No such file or directory.*retrying/)
    expect(court2!.live).toBe(false)
    expect(snapshot.token.limitPerMinute).toBe(1200)
    expect(snapshot.token.sentLastMinute).toBeGreaterThanOrEqual(delivered)
  })

  it("/healthz answers 503 with one reason per line, naming only the disconnected court", async () => {
    const health = await get(`${daemon.url}/healthz`)
    expect(health.status).toBe(503)
    expect(health.type).toMatch(/^text\/plain/)
    const lines = health.body.trimEnd().split("\n")
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).toMatch(/^court-2: DISCONNECTED: .*absent-court-2/)
  })

  it("/metrics parses as Prometheus text and counts what went through the daemon", async () => {
    const response = await get(`${daemon.url}/metrics`)
    expect(response.status).toBe(200)
    expect(response.type).toMatch(/^text\/plain; version=0\.0\.4/)
    const metrics = parsePrometheus(response.body)
    const court1 = { place: "court-1" }
    expect(metrics.get("scorebridge_entries_queued_total")?.type).toBe("counter")
    expect(valueOf(metrics, "scorebridge_entries_queued_total", court1)).toBe(delivered)
    expect(valueOf(metrics, "scorebridge_items_settled_total", { ...court1, kind: "score", outcome: "delivered" })).toBe(delivered)
    expect(valueOf(metrics, "scorebridge_requests_total", { ...court1, kind: "score", outcome: "delivered" })).toBe(delivered)
    expect(valueOf(metrics, "scorebridge_delivery_latency_seconds_count", { ...court1, kind: "score" })).toBe(delivered)
    expect(valueOf(metrics, "scorebridge_delivery_latency_seconds_bucket", { ...court1, kind: "score", le: "+Inf" })).toBe(delivered)
    expect(valueOf(metrics, "scorebridge_frames_total", court1)).toBeGreaterThanOrEqual(4)
    expect(valueOf(metrics, "scorebridge_bad_frames_total", court1)).toBe(1)
    expect(valueOf(metrics, "scorebridge_link_connects_total", { link: "scoreboard:court-1" })).toBe(1)
    expect(valueOf(metrics, "scorebridge_link_up", { link: "scoreboard:court-1" })).toBe(1)
    expect(valueOf(metrics, "scorebridge_link_up", { link: "scoreboard:court-2" })).toBe(0)
    expect(valueOf(metrics, "scorebridge_place_live", court1)).toBe(1)
    expect(valueOf(metrics, "scorebridge_place_live", { place: "court-2" })).toBe(0)
    expect(valueOf(metrics, "scorebridge_request_limit_per_minute")).toBe(1200)
    expect(valueOf(metrics, "scorebridge_outbox_pending", { ...court1, kind: "score" })).toBe(0)
    // Rare events' counters exist at 0 before the first one: rate() and increase() then see it.
    expect(valueOf(metrics, "scorebridge_delivery_retries_total", { ...court1, kind: "click", reason: "rate_limited" })).toBe(0)
    expect(valueOf(metrics, "scorebridge_link_drops_total", { link: "scoreboard:court-1" })).toBe(0)
    // A fleet's central Prometheus tells the venues apart: the config's venue is on every series.
    const samples = [...metrics.values()].flatMap((family) => family.samples)
    expect(samples.length).toBeGreaterThan(20)
    expect(samples.filter((sample) => sample.labels["venue"] !== "lyon-centre").map((sample) => sample.name)).toEqual([])
    expect(valueOf(metrics, "scorebridge_bridge_info", { version: "0.1.0" })).toBe(1)
    // Court 1 has a match running (the service named it in its answers); court 2 is not known to.
    expect(valueOf(metrics, "scorebridge_event_running", court1)).toBe(1)
    expect(valueOf(metrics, "scorebridge_event_running", { place: "court-2" })).toBe(0)
  })

  it("/ is a page of its own files only, whose script polls /status.json", async () => {
    const page = await get(`${daemon.url}/`)
    expect(page.status).toBe(200)
    expect(page.type).toMatch(/^text\/html/)
    // Offline venue: no stylesheet, script, image or font from anywhere else: its own two files only.
    expect([...page.body.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/giu)].map((match) => match[1])).toEqual(["status.css", "status.js"])
    expect(page.body).not.toMatch(/@import|url\(/i)
    const script = await get(`${daemon.url}/status.js`)
    expect(script.body).toContain("status.json")
    expect(script.body).not.toMatch(/@import|url\(|https?:\/\//i)
    expect((await get(`${daemon.url}/status.css`)).body).not.toMatch(/@import|url\(/i)
    expect((await get(`${daemon.url}/nothing-here`)).status).toBe(404)
  })

  it("the token appears in no output: page, JSON, health, metrics, logs", async () => {
    for (const path of ["/", "/status.json", "/healthz", "/metrics"]) {
      const body = (await get(`${daemon.url}${path}`)).body
      expect(body, path).not.toContain(token)
      expect(body, path).not.toMatch(/authorization|bearer/i)
    }
    expect(daemon.logs.join("\n")).not.toContain(token)
  })
})

describe("/healthz on a single court", () => {
  const res = resources()
  afterAll(() => res.release())

  it("is 200 ok while frames flow, and 503 NO DATA once the console goes quiet", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live"], noDataAfterSeconds: 1 })
    const board = feed(daemon)
    res.defer(() => board.stop())
    const ok = await eventually("healthz 200", async () => {
      const health = await get(`${daemon.url}/healthz`)
      return health.status === 200 ? health : undefined
    })
    expect(ok.body).toBe("ok\n")
    board.stop()
    const quiet = await eventually("healthz 503 after the console stopped", async () => {
      const health = await get(`${daemon.url}/healthz`)
      return health.status === 503 ? health : undefined
    }, { timeoutMs: 5_000 })
    expect(quiet.body).toMatch(/^court-1: NO DATA: .*no bytes for \d+ s/)
  }, 20_000)
})
