import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type IncomingMessage } from "node:http"
import { join } from "node:path"
import { parse, stringify } from "yaml"
import { type Child, hasExited, startChild } from "./child.ts"
import { eventually } from "./eventually.ts"
import { freePort } from "./free-port.ts"

/**
 * The engines a fleet's office and venues run, as real processes on loopback: Debian's
 * prometheus (a venue's agent, the office's server) and prometheus-alertmanager, each started
 * from the project's shipped config (deploy/) with only what a test must change: addresses,
 * intervals, paths. What they print goes to a log file in `dir`, for a failure's message.
 */
const deploy = join(import.meta.dirname, "../../deploy")
export const rulesFile = join(deploy, "prometheus/scorebridge.rules.yml")

export interface Engine {
  readonly url: string
  readonly child: Child
  readonly stop: () => Promise<void>
}

type Yaml = Record<string, any>

const readYaml = (file: string): Yaml => parse(readFileSync(file, "utf8")) as Yaml

const ready = async (name: string, url: string, child: Child) => {
  await eventually(`${name} ready at ${url}`, async () => {
    if (hasExited(child)) throw new Error(`${name} exited: ${child.stderr()}`)
    const response = await fetch(`${url}/-/ready`).catch(() => undefined)
    return response?.ok === true ? true : undefined
  }, { timeoutMs: 20_000, intervalMs: 100 })
}

/** The agent's flags as the shipped unit gives them (ExecStart=), with this test's paths. */
export const agentFlagsOfUnit = (config: string, storage: string, listen: string): Array<string> => {
  const unit = readFileSync(join(import.meta.dirname, "../../systemd/scorebridge-prometheus-agent.service"), "utf8")
  // ExecStart= and its continuation lines (each ending in a backslash).
  const lines = unit.split("\n")
  const from = lines.findIndex((l) => l.startsWith("ExecStart="))
  const words: Array<string> = []
  for (let i = from; i < lines.length; i++) {
    const text = lines[i]!.replace(/^ExecStart=/u, "")
    words.push(...text.replace(/\\$/u, "").trim().split(/\s+/u))
    if (!text.endsWith("\\")) break
  }
  return words.slice(1)
    .map((flag) => flag
      .replace("/etc/scorebridge/prometheus-agent.yml", config)
      .replace("${STATE_DIRECTORY}", storage)
      .replace("127.0.0.1:9091", listen))
}

/**
 * A venue's agent: deploy/prometheus/agent.yml, scraping `target` every second, writing to `writeUrl` (no auth here).
 * `shippedTimings`: keep the shipped scrape interval, scrape timeout and batch send deadline (30 s,
 * 10 s, 30 s) instead, for measuring the agent as a venue runs it (scripts/fleet-cost.ts).
 */
export const startAgent = async (
  dir: string,
  name: string,
  target: string,
  writeUrl: string,
  { shippedTimings = false }: { readonly shippedTimings?: boolean } = {}
): Promise<Engine> => {
  const config = readYaml(join(deploy, "prometheus/agent.yml"))
  if (!shippedTimings) {
    config["global"].scrape_interval = "1s"
    config["global"].scrape_timeout = "1s"
  }
  config["scrape_configs"][0].static_configs[0].targets = [target]
  const write = config["remote_write"][0]
  write.url = writeUrl
  delete write.basic_auth
  if (!shippedTimings) write.queue_config.batch_send_deadline = "1s"
  const home = join(dir, name)
  mkdirSync(join(home, "wal"), { recursive: true })
  const file = join(home, "agent.yml")
  writeFileSync(file, stringify(config))
  const port = await freePort()
  const child = startChild("prometheus", [...agentFlagsOfUnit(file, join(home, "wal"), `127.0.0.1:${port}`), "--log.level=warn"])
  const url = `http://127.0.0.1:${port}`
  await ready(`agent ${name}`, url, child)
  return { url, child, stop: () => child.stop(5_000) }
}

/** The office's Prometheus: deploy/prometheus/central.yml with the shipped rules, evaluated every second. */
export const startCentral = async (dir: string, alertmanager: string): Promise<Engine> => {
  const config = readYaml(join(deploy, "prometheus/central.yml"))
  config["global"].evaluation_interval = "1s"
  config["rule_files"] = [rulesFile]
  config["alerting"].alertmanagers[0].static_configs[0].targets = [alertmanager.replace(/^http:\/\//u, "")]
  const home = join(dir, "central")
  mkdirSync(join(home, "tsdb"), { recursive: true })
  const file = join(home, "central.yml")
  writeFileSync(file, stringify(config))
  const port = await freePort()
  const child = startChild("prometheus", [
    `--config.file=${file}`, `--storage.tsdb.path=${join(home, "tsdb")}`, `--web.listen-address=127.0.0.1:${port}`,
    "--web.enable-remote-write-receiver", "--log.level=warn"
  ])
  const url = `http://127.0.0.1:${port}`
  await ready("central prometheus", url, child)
  return { url, child, stop: () => child.stop(5_000) }
}

/** One alert of a webhook notification, as Alertmanager sends it. */
export interface Notified {
  readonly status: "firing" | "resolved"
  readonly labels: Readonly<Record<string, string>>
  readonly annotations: Readonly<Record<string, string>>
  /** Date.now() in the test when the notification arrived. */
  readonly at: number
}

const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (text += chunk))
    request.on("end", () => resolve(text))
    request.on("error", reject)
  })

/** The test's own webhook receiver: every alert Alertmanager notifies, in arrival order. */
export const startWebhook = async () => {
  const received: Array<Notified> = []
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const at = Date.now()
      const body = JSON.parse(text) as { alerts: ReadonlyArray<Omit<Notified, "at">> }
      for (const alert of body.alerts) received.push({ status: alert.status, labels: alert.labels, annotations: alert.annotations, at })
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no webhook address")
  return {
    url: `http://127.0.0.1:${address.port}/alerts`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** deploy/alertmanager/alertmanager.yml with every receiver pointed at `webhook` and the waits in seconds. */
export const startAlertmanager = async (dir: string, webhook: string): Promise<Engine> => {
  const config = readYaml(join(deploy, "alertmanager/alertmanager.yml"))
  const shorten = (route: Yaml) => {
    route["group_wait"] = "1s"
    route["group_interval"] = "1s"
    for (const child of route["routes"] ?? []) shorten(child)
  }
  shorten(config["route"])
  for (const receiver of config["receivers"]) for (const hook of receiver.webhook_configs ?? []) hook.url = webhook
  const home = join(dir, "alertmanager")
  mkdirSync(join(home, "data"), { recursive: true })
  const file = join(home, "alertmanager.yml")
  writeFileSync(file, stringify(config))
  const port = await freePort()
  // No cluster: its gossip listener would bind every interface.
  const child = startChild("prometheus-alertmanager", [
    `--config.file=${file}`, `--storage.path=${join(home, "data")}`, `--web.listen-address=127.0.0.1:${port}`,
    "--cluster.listen-address=", "--log.level=warn"
  ])
  const url = `http://127.0.0.1:${port}`
  await ready("alertmanager", url, child)
  return { url, child, stop: () => child.stop(5_000) }
}

/** An instant query at the office's Prometheus. */
export const query = async (central: string, promql: string): Promise<ReadonlyArray<{ metric: Record<string, string>; value: [number, string] }>> => {
  const response = await fetch(`${central}/api/v1/query?query=${encodeURIComponent(promql)}`)
  const body = await response.json() as { status: string; error?: string; data?: { result: ReadonlyArray<{ metric: Record<string, string>; value: [number, string] }> } }
  if (body.status !== "success") throw new Error(`${promql}: ${body.error ?? response.status}`)
  return body.data!.result
}

/** Resident memory (kB) and CPU seconds so far of a process, from /proc. */
export const processCost = (pid: number): { readonly rssKb: number; readonly cpuSeconds: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const rssKb = Number(/VmRSS:\s+(\d+)/u.exec(status)?.[1] ?? Number.NaN)
  // utime and stime are fields 14 and 15, after the command name in parentheses.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  const ticks = Number(fields[11]) + Number(fields[12])
  return { rssKb, cpuSeconds: ticks / 100 }
}
