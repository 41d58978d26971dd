import { execFile } from "node:child_process"
import { Effect } from "effect"

/** How one systemctl call ended: `code` null when it did not start (no systemctl) or was killed. */
export interface SystemctlRan {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The launcher's one way to ask systemd anything: its tests replace it, and a shared child-process service can. */
export type Systemctl = (args: ReadonlyArray<string>) => Effect.Effect<SystemctlRan>

/** systemctl with these arguments (an array, never a shell), at most 30 s; never fails: the answer says. */
export const runSystemctl: Systemctl = (args) =>
  Effect.callback<SystemctlRan>((resume) => {
    const child = execFile("systemctl", [...args], { timeout: 30_000, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null
      resume(Effect.succeed({ code, stdout, stderr: error !== null && code === null ? `${stderr}systemctl: ${error.message}` : stderr }))
    })
    return Effect.sync(() => {
      child.kill("SIGTERM")
    })
  })
