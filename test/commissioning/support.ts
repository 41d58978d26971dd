import { type ChildProcess, execFile, spawn } from "node:child_process"
import { closeSync, constants, openSync, writeSync } from "node:fs"

const node = "node_modules/.bin/node"

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** A commissioning command as a real process, through its runner in this folder. */
export const runCli = (runner: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(node, [`test/commissioning/${runner}`, ...args], { timeout: 30_000, env: { ...process.env, ...env }, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
  })

/** A long-running command (capture) whose output the test watches and which it stops with a signal. */
export interface Started {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

export const startCli = (runner: string, args: ReadonlyArray<string>): Started => {
  const child = spawn(node, [`test/commissioning/${runner}`, ...args], { stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text))
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

/**
 * Plays bytes into the writer end of a pty pair, `piece` bytes every `everyMs`,
 * looping over `bytes` until stopped. Non-blocking: while nobody reads the
 * other end, socat's buffer fills and the excess is dropped rather than
 * blocking the test worker.
 */
export const playInLoop = (writerPath: string, bytes: Uint8Array, piece = 256, everyMs = 10): { readonly stop: () => void } => {
  const fd = openSync(writerPath, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK)
  let offset = 0
  const timer = setInterval(() => {
    const end = Math.min(offset + piece, bytes.length)
    try {
      writeSync(fd, bytes, offset, end - offset)
    } catch (error) {
      if ((error as { code?: string }).code !== "EAGAIN") throw error
    }
    offset = end === bytes.length ? 0 : end
  }, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      closeSync(fd)
    }
  }
}
