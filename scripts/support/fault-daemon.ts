import { appendFileSync, readFileSync } from "node:fs"
import { eventually } from "./eventually.ts"
import { type Exited, type LogLine, type ScorebridgeProcess, startDaemon, type Wrap } from "./scorebridge-process.ts"

export type { LogLine, Wrap }

/**
 * The daemon as systemd runs it, restarted as often as a scenario needs (a kill -9, a clean stop).
 * Everything it writes on stdout and stderr, across all its restarts, goes to one log file
 * (`logFile`): the token-hygiene test reads those files, and a failing scenario's message quotes
 * their tail. A line on stderr counts as an error (level 50), as in the journal.
 */
export interface FaultDaemon {
  readonly logFile: string
  /** Parsed log lines of every run so far. */
  readonly logs: () => ReadonlyArray<LogLine>
  readonly pid: () => number | undefined
  readonly alive: () => boolean
  /** Starts a new process (after a kill, or the first time). */
  readonly start: () => void
  /** SIGKILL, and waits until it has exited. */
  readonly kill9: () => Promise<void>
  /** SIGTERM (clean stop), SIGKILL after 6 s. */
  readonly stop: () => Promise<void>
  /** How many runs ended without being asked to (neither kill9 nor stop): crashes. */
  readonly crashes: () => number
  /** How each past run ended, oldest first; `asked` when kill9 or stop ended it. */
  readonly exits: () => ReadonlyArray<DaemonExit>
  readonly waitForLog: (pattern: RegExp, options?: { readonly from?: number; readonly timeoutMs?: number }) => Promise<LogLine>
  /** VmRSS from /proc/<pid>/status, in kB. */
  readonly rssKb: () => number
  readonly tail: (lines?: number) => string
}

export interface DaemonExit extends Exited {
  /** Whether kill9 or stop ended it. */
  readonly asked: boolean
}

export const faultDaemon = (
  config: string,
  logFile: string,
  env: Readonly<Record<string, string>>,
  wrap?: Wrap
): FaultDaemon => {
  // Every run's lines, oldest first: indices into them (`from`) stay valid across restarts.
  const runs: Array<ScorebridgeProcess> = []
  let current: ScorebridgeProcess | undefined
  const exits: Array<DaemonExit> = []
  // Set by kill9/stop: an exit that was asked for is not a crash.
  let endAsked = false
  const logs = () => runs.flatMap((run) => run.logs())

  const start = () => {
    if (current !== undefined) throw new Error("daemon already running")
    appendFileSync(logFile, `--- start ${new Date().toISOString()}\n`)
    const run = startDaemon(config, { env, ...(wrap === undefined ? {} : { wrap }), stderrAsLogs: true, onOutput: (text) => appendFileSync(logFile, text) })
    runs.push(run)
    current = run
    endAsked = false
    void run.exited.then((exit) => {
      appendFileSync(logFile, `--- exit code=${exit.code} signal=${exit.signal}\n`)
      exits.push({ ...exit, asked: endAsked })
      if (current === run) current = undefined
    })
  }

  const end = async (signal: NodeJS.Signals) => {
    const run = current
    if (run === undefined) return
    endAsked = true
    // Resolves after the exit's bookkeeping in start, which was chained on it first.
    await run.stop({ signal })
  }

  const tail = (count = 25) => logs().slice(-count).map((l) => `${l.level} ${l.msg}`).join("\n")

  return {
    logFile,
    logs,
    pid: () => current?.process.pid,
    alive: () => current !== undefined && !current.hasExited(),
    start,
    kill9: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
    crashes: () => exits.filter((exit) => !exit.asked).length,
    exits: () => exits,
    waitForLog: (pattern, { from = 0, timeoutMs = 15_000 } = {}) =>
      eventually(`a daemon log matching ${pattern}`, () => logs().slice(from).find((l) => pattern.test(l.msg)), {
        timeoutMs,
        intervalMs: 25
      }).catch((error: Error) => {
        throw new Error(`${error.message}\n${tail()}`)
      }),
    rssKb: () => {
      const pid = current?.process.pid
      if (pid === undefined) throw new Error("daemon not running")
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
      return Number(match?.[1] ?? NaN)
    },
    tail
  }
}
