import { type ChildProcess, execFile, spawn } from "node:child_process"
import { join } from "node:path"

/** `bin/scorebridge`: the bundle the suite's global setup builds from the sources under test. */
export const scorebridge = join(import.meta.dirname, "../../bin/scorebridge")

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

/** A long-running command (capture, sniff) whose output the test watches and which it stops with a signal. */
export interface Started {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

export const startScorebridge = (command: string, args: ReadonlyArray<string>): Started => {
  const child = spawn(scorebridge, [command, ...args], { stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text))
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}
