import { type ChildProcess, spawn } from "node:child_process"

/**
 * A child process started by a test (socat, mosquitto). Every one is also remembered here and
 * killed when the test worker exits, so a failing test or a forgotten `stop()` cannot leave a
 * broker or pty pair running after vitest.
 */
export interface Child {
  readonly process: ChildProcess
  /** Everything the process wrote to stderr so far, for failure messages. */
  readonly stderr: () => string
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  readonly stop: (graceMs?: number) => Promise<void>
}

const running = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

export const startChild = (command: string, args: ReadonlyArray<string>): Child => {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] })
  running.add(child)
  let stderr = ""
  child.stderr?.setEncoding("utf8")
  child.stderr?.on("data", (text: string) => {
    // Keep the tail only: socat -d -d and mosquitto are chatty, and only the end explains a failure.
    stderr = (stderr + text).slice(-8_000)
  })
  // A missing binary surfaces as an exit with a message instead of an unhandled 'error' event.
  child.on("error", (err) => {
    stderr += `\n${command}: ${err.message}`
  })
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once("close", () => resolve())
  }).finally(() => running.delete(child))

  const stop = async (graceMs = 2_000): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }
    await exited
  }
  return { process: child, stderr: () => stderr, stop }
}

/** True once the child has exited (for readiness loops: stop waiting if it died). */
export const hasExited = (child: Child): boolean =>
  child.process.exitCode !== null || child.process.signalCode !== null
