import { Effect } from "effect"
import { runChild } from "../../process/child-process.ts"

/** How one systemctl call ended: `code` null when it did not start (no systemctl) or was stopped. */
export interface SystemctlRan {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The launcher's one way to ask systemd anything: its tests replace it. */
export type Systemctl = (args: ReadonlyArray<string>) => Effect.Effect<SystemctlRan>

/** systemctl with these arguments (src/process: an array, never a shell), at most 30 s; never fails: the answer says. */
export const runSystemctl: Systemctl = (args) =>
  runChild("systemctl", args, { timeoutMs: 30_000 }).pipe(
    Effect.map((ran): SystemctlRan => ({ code: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr })),
    Effect.catch((error) => Effect.succeed<SystemctlRan>({ code: null, stdout: "", stderr: `systemctl: ${error.message}` }))
  )
