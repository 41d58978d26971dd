import { rmSync } from "node:fs"
import { type Child, hasExited, startChild } from "../../scripts/support/child.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A real Prometheus server on 127.0.0.1 for one test file: Debian's `/usr/bin/prometheus` with the
 * caller's config file (scrape jobs, rule files, remote_write…), a free port and a storage
 * directory of its own, ready once `/-/ready` answers 200. `stop()` ends it and removes the
 * storage; call it in `afterAll`.
 *
 * ```ts
 * writeFileSync(configFile, "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs: …")
 * const prometheus = await startPrometheus(configFile, { args: ["--web.enable-remote-write-receiver"] })
 * afterAll(() => prometheus.stop())
 * const answer = await prometheus.query('scorebridge_bridge_info{venue="lyon-centre"}')
 * ```
 *
 * The HTTP API helpers throw on an API error (a bad expression, an unknown function), with
 * Prometheus's own message; an empty result is the caller's to judge.
 */
export interface Prometheus {
  /** `http://127.0.0.1:PORT`, the base of the HTTP API and the UI. */
  readonly url: string
  readonly port: number
  /** The TSDB directory (removed by `stop()`). */
  readonly storage: string
  /** `GET /api/v1/<path>` with the given parameters (repeated for an array); the answer's `data`. */
  readonly api: <T = unknown>(path: string, params?: Readonly<Record<string, string | ReadonlyArray<string>>>) => Promise<T>
  /** An instant query (`/api/v1/query`), at `time` (Unix seconds) or now. */
  readonly query: (expr: string, time?: number) => Promise<InstantResult>
  /** The values of `label` on the series matching any of `match` (`/api/v1/label/<label>/values`). */
  readonly labelValues: (label: string, match?: ReadonlyArray<string>) => Promise<ReadonlyArray<string>>
  /** The scrape targets and their health (`/api/v1/targets`, active ones). */
  readonly targets: () => Promise<ReadonlyArray<ScrapeTarget>>
  /** Everything Prometheus logged on stderr so far (its tail), for failure messages. */
  readonly log: () => string
  readonly stop: () => Promise<void>
}

export interface Sample {
  readonly metric: Readonly<Record<string, string>>
  /** `[unix seconds, "value"]`; the value is a string ("NaN", "+Inf" included). */
  readonly value: readonly [number, string]
}

export type InstantResult =
  | { readonly resultType: "vector"; readonly result: ReadonlyArray<Sample> }
  | { readonly resultType: "scalar" | "string"; readonly result: readonly [number, string] }
  | { readonly resultType: "matrix"; readonly result: ReadonlyArray<{ readonly metric: Readonly<Record<string, string>>; readonly values: ReadonlyArray<readonly [number, string]> }> }

export interface ScrapeTarget {
  readonly scrapePool: string
  readonly scrapeUrl: string
  readonly labels: Readonly<Record<string, string>>
  readonly health: "up" | "down" | "unknown"
  readonly lastError: string
  readonly lastScrape: string
}

const prometheusBinary = "/usr/bin/prometheus"

export interface PrometheusOptions {
  /** More command-line flags, e.g. `--web.enable-remote-write-receiver`. */
  readonly args?: ReadonlyArray<string>
  /** How long to wait for `/-/ready` (replaying nothing, it takes about a second). */
  readonly readyTimeoutMs?: number
}

export const startPrometheus = async (configFile: string, options: PrometheusOptions = {}): Promise<Prometheus> => {
  const storage = tempDir("prometheus")
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: Child = startChild(prometheusBinary, [
    `--config.file=${configFile}`,
    `--web.listen-address=127.0.0.1:${port}`,
    `--storage.tsdb.path=${storage}`,
    "--log.level=warn",
    ...(options.args ?? [])
  ])
  const stop = async () => {
    await child.stop(5_000)
    rmSync(storage, { recursive: true, force: true })
  }
  try {
    await eventually(`prometheus to be ready on ${url}`, async () => {
      if (hasExited(child)) throw new Error(`prometheus exited early: ${child.stderr()}`)
      const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false)
      return ready ? true : undefined
    }, { timeoutMs: options.readyTimeoutMs ?? 15_000, intervalMs: 50 })
  } catch (error) {
    await stop()
    throw error
  }

  const api = async <T>(path: string, params: Readonly<Record<string, string | ReadonlyArray<string>>> = {}): Promise<T> => {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(params)) {
      for (const one of typeof value === "string" ? [value] : value) search.append(name, one)
    }
    const response = await fetch(`${url}/api/v1/${path}?${search.toString()}`)
    const body = (await response.json()) as { status: string; data?: T; errorType?: string; error?: string }
    if (body.status !== "success") throw new Error(`prometheus ${path}: ${body.errorType ?? response.status}: ${body.error ?? "no error text"}`)
    return body.data as T
  }

  return {
    url,
    port,
    storage,
    api,
    query: (expr, time) => api<InstantResult>("query", time === undefined ? { query: expr } : { query: expr, time: String(time) }),
    labelValues: (label, match = []) => api<ReadonlyArray<string>>(`label/${encodeURIComponent(label)}/values`, { "match[]": match }),
    targets: async () => (await api<{ activeTargets: ReadonlyArray<ScrapeTarget> }>("targets", { state: "active" })).activeTargets,
    log: () => child.stderr(),
    stop
  }
}
