import { createInterface } from "node:readline"
import { Effect, FiberSet, type Scope } from "effect"

/**
 * The terminal's ways to ask for a fresh code: SIGUSR1 to the process (`kill -USR1 PID`,
 * `systemctl kill -s USR1` for the unit), and Enter when stdin is a terminal. Both stop with the
 * scope. Answers the line that tells the technician so.
 */
export const freshCodeTriggers = (freshCode: Effect.Effect<void>): Effect.Effect<string, never, Scope.Scope> =>
  Effect.gen(function*() {
    const run = yield* FiberSet.makeRuntime<never, void, never>()
    const onAsk = () => {
      run(freshCode)
    }
    const terminal = process.stdin.isTTY === true
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        // A listener also keeps Node from opening its inspector on SIGUSR1, its default.
        process.on("SIGUSR1", onAsk)
        const lines = terminal ? createInterface({ input: process.stdin }) : undefined
        lines?.on("line", onAsk)
        return lines
      }),
      (lines) =>
        Effect.sync(() => {
          process.off("SIGUSR1", onAsk)
          lines?.close()
        })
    )
    return terminal ? "Enter (or SIGUSR1) prints a fresh code" : `SIGUSR1 (kill -USR1 ${process.pid}) prints a fresh code`
  })
