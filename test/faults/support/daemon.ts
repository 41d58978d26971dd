import { type ChildProcess, spawn } from "node:child_process"
import { appendFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { eventually } from "../../../scripts/support/eventually.ts"

/**
 * `bin/scorebridge run --config FILE` as a real process, as systemd runs it. Everything it
 * writes on stdout and stderr, across all its restarts, goes to one log file (`logFile`): the
 * token-hygiene test reads those files, and a failing scenario's message quotes their tail.
 */
const cli = join(import.meta.dirname, "../../../bin/scorebridge")

const running = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

export interface LogLine {
  readonly level: number
  readonly msg: string
  /** Date.now() in the test when the line arrived. */
  readonly seenAt: number
}

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

export interface DaemonExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly asked: boolean
  /** Date.now() in the test when the process had exited. */
  readonly at: number
}

/** Runs the daemon through another command, e.g. `unshare -m sh -c "mount …; exec \"$@\""`. */
export type Wrap = (command: string, args: ReadonlyArray<string>) => readonly [string, ReadonlyArray<string>]

export const faultDaemon = (
  config: string,
  logFile: string,
  env: Readonly<Record<string, string>>,
  wrap: Wrap = (command, args) => [command, args]
): FaultDaemon => {
  const logs: Array<LogLine> = []
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let crashes = 0
  const exits: Array<DaemonExit> = []
  // Set by kill9/stop: an exit that was asked for is not a crash.
  let endAsked = false

  const collect = (stream: NodeJS.ReadableStream, name: string) => {
    let partial = ""
    stream.setEncoding("utf8")
    stream.on("data", (text: string) => {
      appendFileSync(logFile, text)
      const lines = (partial + text).split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) {
        if (line.trim() === "") continue
        let parsed: { level?: unknown; msg?: unknown } = {}
        try {
          parsed = JSON.parse(line) as typeof parsed
        } catch {
          parsed = { level: name === "stderr" ? 50 : 30, msg: line }
        }
        logs.push({ level: Number(parsed.level ?? 30), msg: String(parsed.msg ?? line), seenAt: Date.now() })
      }
    })
  }

  const start = () => {
    if (child !== undefined) throw new Error("daemon already running")
    appendFileSync(logFile, `--- start ${new Date().toISOString()}\n`)
    const [command, args] = wrap(cli, ["run", "--config", config])
    const started = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } })
    running.add(started)
    child = started
    endAsked = false
    collect(started.stdout!, "stdout")
    collect(started.stderr!, "stderr")
    exited = new Promise((resolve) => {
      started.once("exit", (code, signal) => {
        running.delete(started)
        appendFileSync(logFile, `--- exit code=${code} signal=${signal}\n`)
        if (!endAsked) crashes++
        exits.push({ code, signal, asked: endAsked, at: Date.now() })
        if (child === started) child = undefined
        resolve()
      })
    })
  }

  const end = async (signal: NodeJS.Signals) => {
    const current = child
    if (current === undefined) return
    endAsked = true
    current.kill(signal)
    const timer = setTimeout(() => current.kill("SIGKILL"), 6_000)
    await exited
    clearTimeout(timer)
  }

  const tail = (count = 25) => logs.slice(-count).map((l) => `${l.level} ${l.msg}`).join("\n")

  return {
    logFile,
    logs: () => logs,
    pid: () => child?.pid,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    start,
    kill9: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
    crashes: () => crashes,
    exits: () => exits,
    waitForLog: (pattern, { from = 0, timeoutMs = 15_000 } = {}) =>
      eventually(`a daemon log matching ${pattern}`, () => logs.slice(from).find((l) => pattern.test(l.msg)), {
        timeoutMs,
        intervalMs: 25
      }).catch((error: Error) => {
        throw new Error(`${error.message}\n${tail()}`)
      }),
    rssKb: () => {
      const pid = child?.pid
      if (pid === undefined) throw new Error("daemon not running")
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
      return Number(match?.[1] ?? NaN)
    },
    tail
  }
}
