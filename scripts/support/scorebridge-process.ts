import { type ChildProcess, execFile, spawn } from "node:child_process"
import { join } from "node:path"
import { eventually } from "./eventually.ts"

/**
 * `bin/scorebridge COMMAND …` as a real process: the one way tests, the bench and the scripts start
 * it (the daemon as systemd runs it, or a command such as capture or learn they watch and stop).
 * `bin/scorebridge` runs the bundle the suite's global setup (or the bench) builds from the sources.
 */
export const scorebridge = join(import.meta.dirname, "../../bin/scorebridge")

/** A pino line of its stdout (a line that is not JSON is kept as its text, level 0; stderr's at level 50 when asked). */
export interface LogLine {
  readonly level: number
  readonly msg: string
  /** Date.now() here when the line arrived. */
  readonly seenAt: number
  readonly [field: string]: unknown
}

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** Date.now() here once it had exited. */
  readonly at: number
}

export interface ScorebridgeProcess {
  readonly process: ChildProcess
  readonly logs: () => ReadonlyArray<LogLine>
  /** Everything written on stdout so far, as text. */
  readonly stdout: () => string
  /** The last 64 kB of stderr, for assertions and failure messages. */
  readonly stderr: () => string
  readonly exited: Promise<Exited>
  readonly hasExited: () => boolean
  /** Resolves with the first log line (after `from`) whose message matches; fails early if the process exits first. */
  readonly waitForLog: (pattern: RegExp, options?: { readonly from?: number; readonly timeoutMs?: number }) => Promise<LogLine>
  /** `signal` (SIGTERM by default), then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  readonly stop: (options?: { readonly signal?: NodeJS.Signals; readonly graceMs?: number }) => Promise<Exited>
  /** SIGKILL if still running. */
  readonly kill: () => void
}

/** Runs it through another command, e.g. `unshare -m sh -c "mount …; exec \"$@\""`. */
export type Wrap = (command: string, args: ReadonlyArray<string>) => readonly [string, ReadonlyArray<string>]

export interface StartOptions {
  /** Added to this process's environment; `undefined` unsets a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Another scorebridge than this checkout's, e.g. one a package installed into a throw-away root. */
  readonly command?: string
  readonly wrap?: Wrap
  /** `pipe` for a command that reads the technician's lines on stdin (learn). */
  readonly stdin?: "ignore" | "pipe"
  /** Every chunk as it comes, e.g. to keep a log file across restarts. */
  readonly onOutput?: (text: string) => void
  /** Takes stderr's lines into `logs` at level 50 (errors), as a journal would show them. */
  readonly stderrAsLogs?: boolean
}

const withEnv = (env: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv => {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name]
  return merged
}

const running = new Set<ChildProcess>()
// If the test worker, bench or script dies, no scorebridge it started outlives it.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

/** Splits a stream into lines and hands each to `line` (the unfinished last one waits for more). */
const eachLine = (stream: NodeJS.ReadableStream, chunk: (text: string) => void, line: (text: string) => void) => {
  let partial = ""
  stream.setEncoding("utf8")
  stream.on("data", (text: string) => {
    chunk(text)
    const lines = (partial + text).split("\n")
    partial = lines.pop() ?? ""
    for (const one of lines) if (one.trim() !== "") line(one)
  })
}

const parsed = (text: string, level: number): LogLine => {
  try {
    const line = JSON.parse(text) as Record<string, unknown>
    if (typeof line === "object" && line !== null) return { ...line, level: Number(line["level"] ?? 30), msg: String(line["msg"] ?? text), seenAt: Date.now() }
  } catch {
    // Not JSON: kept as its text below.
  }
  return { level, msg: text, seenAt: Date.now() }
}

export const startScorebridge = (args: ReadonlyArray<string>, options: StartOptions = {}): ScorebridgeProcess => {
  const { env = {}, command: executable = scorebridge, wrap = (c, a) => [c, a], stdin = "ignore", onOutput = () => undefined } = options
  const [command, fullArgs] = wrap(executable, args)
  const child = spawn(command, fullArgs, { stdio: [stdin, "pipe", "pipe"], env: withEnv(env) })
  running.add(child)
  const logs: Array<LogLine> = []
  let stdout = ""
  let stderr = ""
  eachLine(child.stdout!, (text) => {
    stdout += text
    onOutput(text)
  }, (line) => logs.push(parsed(line, 0)))
  eachLine(child.stderr!, (text) => {
    stderr = (stderr + text).slice(-64_000)
    onOutput(text)
  }, (line) => {
    if (options.stderrAsLogs === true) logs.push(parsed(line, 50))
  })
  let done = false
  // 'close', not 'exit': by then everything it wrote has been read.
  const exited = new Promise<Exited>((resolve) => {
    child.once("close", (code, signal) => {
      done = true
      running.delete(child)
      resolve({ code, signal, at: Date.now() })
    })
  })
  const describe = () => `logs:\n${logs.slice(-15).map((l) => `${l.level} ${l.msg}`).join("\n")}\nstderr: ${stderr.slice(-2_000)}`
  const stop = async ({ signal = "SIGTERM", graceMs = 6_000 }: { readonly signal?: NodeJS.Signals; readonly graceMs?: number } = {}) => {
    if (!done) {
      child.kill(signal)
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }
    return exited
  }
  return {
    process: child,
    logs: () => logs,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    hasExited: () => done,
    waitForLog: (pattern, { from = 0, timeoutMs = 10_000 } = {}) =>
      eventually(`a scorebridge log matching ${pattern}`, () => {
        const found = logs.slice(from).find((l) => pattern.test(l.msg))
        if (found === undefined && done) throw new Error(`scorebridge exited before logging ${pattern}`)
        return found
      }, { timeoutMs, intervalMs: 25 }).catch((error: Error) => {
        throw new Error(`${error.message}; ${describe()}`)
      }),
    stop,
    kill: () => {
      if (!done) child.kill("SIGKILL")
    }
  }
}

/** `scorebridge run --config FILE`: the daemon as systemd runs it. */
export const startDaemon = (config: string, options: StartOptions = {}): ScorebridgeProcess =>
  startScorebridge(["run", "--config", config], options)

/** What a finished command printed and how it exited (-1: killed, e.g. by the timeout). */
export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** `scorebridge COMMAND ARGS…` as a real process, to its end. */
export const runScorebridge = (
  command: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 30_000
): Promise<Run> =>
  new Promise((resolve) => {
    execFile(scorebridge, [command, ...args], { timeout: timeoutMs, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
  })
