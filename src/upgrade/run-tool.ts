import { Effect } from "effect"
import { runChild } from "../process/child-process.ts"

/** How a system tool (dpkg, systemctl) ended and what it said. `status` null: it did not start, was killed or timed out. */
export interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

// Output is kept whole only up to this: the tools' own lines are short, a runaway script's are not.
const outputCap = 64 * 1024

/**
 * Runs a tool to its end (at most `timeoutMs`); never fails: what went wrong is in the answer.
 * It gets our whole environment (dpkg's maintainer scripts run with it) and `env` over it;
 * interrupted or timed out, it is stopped with its process group (a maintainer script's children).
 */
export const runTool = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly input?: string; readonly timeoutMs: number; readonly env?: Readonly<Record<string, string>> }
): Effect.Effect<Ran> =>
  runChild(command, args, { ...options, inherit: "all", outputCap }).pipe(
    Effect.map((ran): Ran => ({ status: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr })),
    Effect.catchTags({
      ChildStartError: (error) => Effect.succeed<Ran>({ status: null, stdout: "", stderr: error.message }),
      ChildTimedOut: (error) => Effect.succeed<Ran>({ status: null, stdout: "", stderr: `${error.stderr}${error.message}` })
    })
  )
