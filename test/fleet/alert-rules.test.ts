import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { parse } from "yaml"
import type { OutboxDiskStats } from "../../src/delivery/slow-disk.ts"
import { makeStatusMetrics } from "../../src/status/status-metrics.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { parsePrometheus, valueOf } from "../status/prometheus-text.ts"

/**
 * The fleet's alerting rules (deploy/prometheus/scorebridge.rules.yml) as Prometheus itself reads
 * them: `promtool check rules`, then `promtool test rules` on the unit tests beside them (input
 * series for every alert, firing and not firing, in promtool's format). Debian's promtool comes
 * with the `prometheus` package (scripts/system-deps.sh). Then what promtool cannot see: every
 * alert says who and where, and reads only metrics the bridge serves.
 */
const dir = join(import.meta.dirname, "../../deploy/prometheus")
const rulesFile = join(dir, "scorebridge.rules.yml")
const testsFile = join(dir, "scorebridge.rules.test.yml")

const promtool = (...args: ReadonlyArray<string>) => {
  const result = spawnSync("promtool", args, { cwd: dir, encoding: "utf8", timeout: 60_000 })
  const output = `promtool ${args.join(" ")} exited ${result.status ?? result.signal}${result.error === undefined ? "" : ` (${result.error.message}: is promtool installed? scripts/system-deps.sh)`}\n${result.stdout ?? ""}${result.stderr ?? ""}`
  return { status: result.status, output }
}

interface Rule {
  readonly alert?: string
  readonly record?: string
  readonly expr: string
  readonly for?: string
  readonly labels?: Record<string, string>
  readonly annotations?: Record<string, string>
}

const rules: ReadonlyArray<Rule> = (parse(readFileSync(rulesFile, "utf8")) as { groups: ReadonlyArray<{ rules: ReadonlyArray<Rule> }> })
  .groups.flatMap((group) => group.rules)
const alerts = rules.filter((rule) => rule.alert !== undefined)

const minutes = (duration: string | undefined) => {
  if (duration === undefined) return 0
  const match = /^(\d+)([smh])$/.exec(duration)
  if (match === null) throw new Error(`unexpected duration ${duration}`)
  return Number(match[1]) * { s: 1 / 60, m: 1, h: 60 }[match[2] as "s" | "m" | "h"]
}

describe("deploy/prometheus/scorebridge.rules.yml", () => {
  it("promtool check rules accepts it", () => {
    const { status, output } = promtool("check", "rules", rulesFile)
    expect(status, output).toBe(0)
  })

  it("promtool test rules: every alert fires on its input series, stays silent where it must, resolves", () => {
    const { status, output } = promtool("test", "rules", testsFile)
    expect(status, output).toBe(0)
    expect(output).toContain("SUCCESS")
  })

  it("the unit tests see every alert both firing and not firing", () => {
    const tests = (parse(readFileSync(testsFile, "utf8")) as {
      tests: ReadonlyArray<{ alert_rule_test?: ReadonlyArray<{ alertname: string; exp_alerts?: ReadonlyArray<unknown> }> }>
    }).tests.flatMap((test) => test.alert_rule_test ?? [])
    for (const { alert } of alerts) {
      const cases = tests.filter((test) => test.alertname === alert)
      expect(cases.filter((test) => (test.exp_alerts ?? []).length > 0).length, `${alert} firing`).toBeGreaterThan(0)
      expect(cases.filter((test) => (test.exp_alerts ?? []).length === 0).length, `${alert} not firing`).toBeGreaterThan(0)
    }
  })

  it("every alert has a severity, and a summary and description naming the venue and, for a court, the court", () => {
    expect(alerts.length).toBeGreaterThanOrEqual(11)
    for (const { alert, expr, labels, annotations } of alerts) {
      // Nothing that grows with use: severity only, beside the venue and place the expression keeps.
      expect(labels, alert).toEqual({ severity: expect.stringMatching(/^(critical|warning)$/) })
      expect(Object.keys(annotations ?? {}).sort(), alert).toEqual(["description", "summary"])
      for (const text of [annotations!["summary"]!, annotations!["description"]!]) {
        expect(text, alert).toContain("{{ $labels.venue }}")
        if (/\bplace\b/.test(expr)) expect(text, alert).toContain("{{ $labels.place }}")
      }
    }
  })

  it("the alerts the end-to-end fleet test waits for keep a short `for`, and alone read the metric it finds them by", () => {
    const forOf = (name: string) => alerts.find((rule) => rule.alert === name)?.for
    expect(forOf("ScorebridgeCourtNotLive")).toBe("1m")
    expect(minutes(forOf("ScorebridgeTokenRejected"))).toBeLessThanOrEqual(1)
    // test/fleet/fleet-alerts.test.ts finds them by what they read.
    const reading = (metric: string) => alerts.filter((rule) => rule.expr.includes(metric)).map((rule) => rule.alert)
    expect(reading("scorebridge_event_running")).toEqual(["ScorebridgeCourtNotLive"])
    expect(reading("scorebridge_token_suspended")).toEqual(["ScorebridgeTokenRejected"])
  })

  it("reads only metrics the bridge serves (src/status/metric-catalogue.ts)", () => {
    const served = new Set([...readFileSync(join(import.meta.dirname, "../../src/status/metric-catalogue.ts"), "utf8")
      .matchAll(/"(scorebridge_[a-z_]+)"/g)].map((match) => match[1]!))
    const read = new Set(rules.flatMap((rule) => [...rule.expr.matchAll(/(?<![:\w])scorebridge_[a-z_]+/g)].map((match) => match[0])))
    expect(read.size).toBeGreaterThan(10)
    expect([...read].filter((name) => !served.has(name))).toEqual([])
  })
})

describe("the metrics only the alerts read", () => {
  const snapshot = (outboxDisk: OutboxDiskStats, clockSkewMs: number | null, startedAt = 1_750_000_000_000): StatusSnapshot => ({
    generatedAt: startedAt + 60_000,
    startedAt,
    venueClock: { timeZone: "UTC", utcOffsetMinutes: 0 },
    healthy: true,
    reasons: [],
    places: [],
    token: { sentLastMinute: 0, limitPerMinute: 60, waiting: { click: 0, score: 0, backlog: 0 }, backoffUntil: null, suspended: null },
    links: [],
    clockSkewMs,
    outboxDisk,
    thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 120_000 },
    timelines: {},
    rollback: null
  })
  const disk = (fsyncs: number, fsyncSeconds: number, slowFsyncs: number, slowCommits: number) => ({ fsyncs, fsyncSeconds, slowFsyncs, slowCommits })

  it("clock skew and start time are gauges; the outbox's fsyncs are counters, from 0, following the outbox's running totals", async () => {
    const metrics = makeStatusMetrics({ followsClips: false, venue: "lyon-centre" })
    const scrape = async (s: StatusSnapshot) => parsePrometheus(await Effect.runPromise(metrics.render(s)))
    const venue = { venue: "lyon-centre" }

    // No answer from the service yet: no skew series; the disk's counters are there, at 0.
    let text = await scrape(snapshot(disk(0, 0, 0, 0), null))
    expect(text.has("scorebridge_clock_skew_seconds")).toBe(false)
    expect(valueOf(text, "scorebridge_start_time_seconds", venue)).toBe(1_750_000_000)
    for (const name of ["fsyncs", "fsync_seconds", "slow_fsyncs", "slow_commits"]) {
      expect(text.get(`scorebridge_outbox_${name}_total`)?.type, name).toBe("counter")
      expect(valueOf(text, `scorebridge_outbox_${name}_total`, venue), name).toBe(0)
    }

    text = await scrape(snapshot(disk(40, 6.5, 12, 2), -3_400))
    expect(valueOf(text, "scorebridge_clock_skew_seconds", venue)).toBe(-3.4)
    expect(valueOf(text, "scorebridge_outbox_fsyncs_total", venue)).toBe(40)
    expect(valueOf(text, "scorebridge_outbox_fsync_seconds_total", venue)).toBeCloseTo(6.5)
    expect(valueOf(text, "scorebridge_outbox_slow_fsyncs_total", venue)).toBe(12)
    expect(valueOf(text, "scorebridge_outbox_slow_commits_total", venue)).toBe(2)

    text = await scrape(snapshot(disk(50, 7, 13, 2), 200))
    expect(valueOf(text, "scorebridge_outbox_fsyncs_total", venue)).toBe(50)
    expect(valueOf(text, "scorebridge_outbox_slow_fsyncs_total", venue)).toBe(13)

    // Totals that go back (an outbox opened again under the same registry) are counted on from zero.
    text = await scrape(snapshot(disk(5, 0.5, 1, 0), 200, 1_750_000_600_000))
    expect(valueOf(text, "scorebridge_start_time_seconds", venue)).toBe(1_750_000_600)
    expect(valueOf(text, "scorebridge_outbox_fsyncs_total", venue)).toBe(55)
    expect(valueOf(text, "scorebridge_outbox_slow_fsyncs_total", venue)).toBe(14)
  })
})
