import { spawn } from "node:child_process"
import { Effect } from "effect"

/** How a system tool (dpkg, systemctl) ended and what it said. `status` null: it did not start or was killed. */
export interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

// Output is kept whole only up to this: the tools' own lines are short, a runaway script's are not.
const outputCap = 64 * 1024

/** Runs a tool to its end (at most `timeoutMs`); never fails: what went wrong is in the answer. */
export const runTool = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly input?: string; readonly timeoutMs: number; readonly env?: Readonly<Record<string, string>> }
) =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], timeout: options.timeoutMs, env: { ...process.env, ...options.env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => void (stdout = (stdout + chunk.toString("utf8")).slice(-outputCap)))
    child.stderr.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString("utf8")).slice(-outputCap)))
    child.on("error", (error) => resume(Effect.succeed({ status: null, stdout, stderr: `${stderr}${command}: ${error.message}` })))
    child.on("close", (status) => resume(Effect.succeed({ status, stdout, stderr })))
    child.stdin.on("error", () => undefined)
    child.stdin.end(options.input ?? "")
  })
