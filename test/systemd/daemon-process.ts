import { collectDaemonOutput } from "../support/daemon-output.ts"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { type DaemonConfig, daemonConfig, type PlaceConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"

/**
 * `bin/scorebridge run` as a real process, the way systemd runs it, with its pino log lines
 * parsed as they come. Every one started is killed when the test worker exits.
 */
export const cli = join(import.meta.dirname, "../../bin/scorebridge")

export interface LogLine {
  readonly level: number
  readonly msg: string
  readonly [field: string]: unknown
}

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** Date.now() when it exited. */
  readonly at: number
}

export interface DaemonProcess {
  readonly process: ChildProcess
  readonly logs: () => ReadonlyArray<LogLine>
  readonly stderr: () => string
  /** Resolves with the first log line (after `from`) whose message matches. */
  readonly waitForLog: (pattern: RegExp, options?: { readonly from?: number; readonly timeoutMs?: number }) => Promise<LogLine>
  readonly exited: Promise<Exited>
  /** SIGKILL if still running. */
  readonly kill: () => void
}

const running = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

/** `command`: another scorebridge than this checkout's, e.g. one a package installed into a throw-away root. */
export const startDaemon = (config: string, env: Readonly<Record<string, string>> = {}, command = cli): DaemonProcess => {
  const child = spawn(command, ["run", "--config", config], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } })
  running.add(child)
  const { logs, stderr: stderrTail } = collectDaemonOutput<LogLine>(child, (text) => ({ level: 0, msg: text }))
  const exited = new Promise<Exited>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child)
      resolve({ code, signal, at: Date.now() })
    })
  })
  let done = false
  void exited.then(() => {
    done = true
  })
  const describe = () => `daemon logs:\n${logs.slice(-15).map((l) => `${l.level} ${l.msg}`).join("\n")}\nstderr: ${stderrTail()}`
  return {
    process: child,
    logs: () => logs,
    stderr: stderrTail,
    waitForLog: (pattern, { from = 0, timeoutMs = 10_000 } = {}) =>
      eventually(`a daemon log matching ${pattern}`, () => {
        const found = logs.slice(from).find((l) => pattern.test(l.msg))
        if (found === undefined && done) throw new Error(`daemon exited before logging ${pattern}; ${describe()}`)
        return found
      }, { timeoutMs, intervalMs: 50 }).catch((error: Error) => {
        throw new Error(`${error.message}; ${describe()}`)
      }),
    exited,
    kill: () => {
      if (!done) child.kill("SIGKILL")
    }
  }
}

/** A tennis place on a serial link speaking the demo's `lines` protocol. */
export const tennisOnSerial = (key: string, serialPath: string): PlaceConfig => ({
  key,
  sport: "tennis",
  scoreboard: {
    protocol: "lines",
    serial: { path: serialPath, baudRate: 9600 },
    options: { pattern: "^(?<clock>\\d\\d:\\d\\d) (?<homePoints>\\w+)-(?<awayPoints>\\w+) (?<sets>[\\d -]+)$" }
  }
})

/**
 * The config of a daemon run as systemd runs it. The status page gets its own free port: test
 * files run in parallel, and the default 8370 would collide.
 */
export const runConfig = (
  { baseUrl, stateDirectory, statusPort, timeoutMs = 10_000, ...sections }: {
    readonly baseUrl: string
    readonly stateDirectory: string
    readonly statusPort: number
    readonly timeoutMs?: number
  } & Pick<DaemonConfig, "places" | "buttons">
): DaemonConfig =>
  daemonConfig({
    service: { baseUrl, requestsPerSecond: 20, timeoutMs },
    stateDirectory,
    status: { listen: `127.0.0.1:${statusPort}` },
    log: { level: "info" },
    ...sections
  })
