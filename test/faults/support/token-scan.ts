import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

/**
 * Every place under `dir` (daemon logs of all runs, the outbox database and its WAL with the
 * stored errors, configs) and every extra text (status page, metrics) that contains `token`.
 * Files are read as bytes, so the token is found inside SQLite pages too.
 */
export const tokenLeaks = (dir: string, token: string, extra: Readonly<Record<string, string>> = {}): Array<string> => {
  const leaks: Array<string> = []
  const needle = Buffer.from(token)
  const walk = (path: string, depth: number): void => {
    if (depth > 6) return
    let stat
    try {
      stat = statSync(path)
    } catch {
      return // a socket or a file removed while walking
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name), depth + 1)
    } else if (stat.isFile() && stat.size < 200 * 1024 * 1024) {
      if (readFileSync(path).includes(needle)) leaks.push(path)
    }
  }
  walk(dir, 0)
  for (const [name, text] of Object.entries(extra)) if (text.includes(token)) leaks.push(name)
  return leaks
}

/** What the status server shows, for the scan; "" where it does not answer (no status page configured). */
export const statusOutputs = async (statusUrl: string): Promise<Record<string, string>> => {
  const outputs: Record<string, string> = {}
  for (const path of ["/", "/status.json", "/metrics", "/healthz"]) {
    try {
      const response = await fetch(`${statusUrl}${path}`, { signal: AbortSignal.timeout(2_000) })
      outputs[`${statusUrl}${path}`] = `${response.status}\n${[...response.headers].join("\n")}\n${await response.text()}`
    } catch {
      outputs[`${statusUrl}${path}`] = ""
    }
  }
  return outputs
}
