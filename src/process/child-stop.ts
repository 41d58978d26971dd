import { Effect } from "effect"
import type { ChildProcessHandle } from "effect/process/ChildProcessSpawner"
import type { ChildEnd } from "./child-errors.ts"

/**
 * Waits on native timers, not the Effect clock: a child is stopped within its bounds even where
 * the clock is a test's (TestClock), and a finalizer that waited on a clock nobody moves would hang.
 */
const nativeDelay = (ms: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  })

/** True once the child has exited, false if it is still there after `ms`. */
const exitsWithin = (handle: ChildProcessHandle, ms: number) =>
  Effect.raceFirst(handle.exitCode.pipe(Effect.ignore, Effect.as(true)), nativeDelay(ms).pipe(Effect.as(false)))

/** Signals the child's process group (its pid: it leads its own); ESRCH, the group gone, is nothing to do. */
const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal)
  } catch {
    // The group is already gone.
  }
}

/**
 * Ends the child and its process group: SIGTERM, SIGKILL if it is still there after `graceMs`,
 * and SIGKILL to the group in any case, which reaches what it left behind (a wrapper script's
 * children) even when it exited by itself.
 */
export const stopGroup = (program: string, handle: ChildProcessHandle, graceMs: number) =>
  Effect.gen(function*() {
    const running = yield* handle.isRunning.pipe(Effect.orElseSucceed(() => false))
    if (running) {
      signalGroup(handle.pid, "SIGTERM")
      if (!(yield* exitsWithin(handle, graceMs))) {
        yield* Effect.logWarning(`${program} ignored SIGTERM for ${graceMs} ms; killing it`)
      }
    }
    signalGroup(handle.pid, "SIGKILL")
    if (running) yield* exitsWithin(handle, graceMs)
  })

/** Node reports a child ended by a signal as a failed exit code whose text names the signal. */
const signalOf = (error: { readonly message: string; readonly cause?: unknown }): string => {
  const text = error.cause instanceof Error ? `${error.cause.message} ${error.message}` : error.message
  return /\b(SIG[A-Z0-9]+)\b/u.exec(text)?.[1] ?? "a signal"
}

/** How the child ended, once it has. */
export const endOf = (handle: ChildProcessHandle): Effect.Effect<ChildEnd> =>
  handle.exitCode.pipe(
    Effect.map((code): ChildEnd => ({ exitCode: code, signal: null })),
    Effect.catch((error) => Effect.succeed<ChildEnd>({ exitCode: null, signal: signalOf(error) }))
  )
