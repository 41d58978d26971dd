import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Duration, Effect, Layer, type Scope, Stream } from "effect"
import type { PlatformError } from "effect/PlatformError"
import { ChildProcess, ChildProcessSpawner } from "effect/process"
import { type ChildEnd, ChildFailed, ChildStartError, ChildTimedOut, describeEnd, lastLine } from "./child-errors.ts"
import { childEnvironment, type Inherit } from "./child-environment.ts"
import { endOf, stopGroup } from "./child-stop.ts"

/**
 * The one way the product runs a program: Effect's ChildProcess on Node's spawner, never through a
 * shell (the arguments are an array, passed as they are). Each child gets a process group of its
 * own, and closing its scope (the calling fiber interrupted, a timeout, the work done) ends that
 * group: SIGTERM, then SIGKILL after `stopGraceMs`, so a wrapper script goes with what it started.
 */
export interface ChildOptions {
  /** Written to its stdin, which is then closed; without it, stdin is /dev/null. */
  readonly input?: string
  /** Variables set for it, over what `inherit` gives it. */
  readonly env?: Readonly<Record<string, string>>
  /** "tool" (the default): PATH, locale, TZ, HOME and nothing else of ours; "all": our whole environment. */
  readonly inherit?: Inherit
  /** How long a stopped child gets between SIGTERM and SIGKILL; 1 s unless said. */
  readonly stopGraceMs?: number
}

export interface RunOptions extends ChildOptions {
  /** Every run is bounded: past this the child is stopped and the run fails with ChildTimedOut. */
  readonly timeoutMs: number
  /** stdout and stderr are each kept up to this many characters, their last ones; 64 KiB unless said. */
  readonly outputCap?: number
}

/** A child that ran to its end: how it ended and what it said. */
export interface ChildOutput extends ChildEnd {
  readonly stdout: string
  readonly stderr: string
}

/** A long-running child, until its scope closes. Its streams end when it closes them (at its exit, usually). */
export interface RunningChild {
  readonly pid: number
  readonly stdout: Stream.Stream<Uint8Array>
  readonly stderr: Stream.Stream<Uint8Array>
  /** Once it has exited. */
  readonly ended: Effect.Effect<ChildEnd>
}

const defaultStopGraceMs = 1_000
const defaultOutputCap = 64 * 1024

// Built once: Node's spawner needs only the file system and paths (for `cwd`), both stateless.
let spawnerService: ChildProcessSpawner.ChildProcessSpawner["Service"] | undefined
const spawner = () =>
  spawnerService ??= Effect.runSync(
    Effect.provide(
      ChildProcessSpawner.ChildProcessSpawner.useSync((service) => service),
      NodeChildProcessSpawner.layer.pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))
    )
  )

const startError = (program: string, path: string | undefined, error: PlatformError): ChildStartError => {
  const tag = error.reason._tag
  if (tag === "NotFound") {
    const where = program.includes("/") ? "" : ` on the PATH (${path ?? "unset"})`
    return new ChildStartError({ program, reason: "not-found", message: `${program} not found${where}` })
  }
  if (tag === "PermissionDenied") {
    return new ChildStartError({ program, reason: "permission-denied", message: `${program} cannot be run: permission denied (is it executable?)` })
  }
  return new ChildStartError({ program, reason: "other", message: `${program} cannot be started: ${error.message}` })
}

const encoder = new TextEncoder()

/** Starts `program` in a process group of its own, ended (with its group) when the scope closes. */
export const spawnChild = (
  program: string,
  args: ReadonlyArray<string>,
  options: ChildOptions = {}
): Effect.Effect<RunningChild, ChildStartError, Scope.Scope> =>
  Effect.gen(function*() {
    const graceMs = options.stopGraceMs ?? defaultStopGraceMs
    const env = childEnvironment(options.inherit ?? "tool", options.env ?? {})
    const command = ChildProcess.make(program, args, {
      env,
      stdin: options.input === undefined ? "ignore" : Stream.make(encoder.encode(options.input)),
      detached: true,
      killSignal: "SIGTERM",
      forceKillAfter: Duration.millis(graceMs)
    })
    const handle = yield* spawner().spawn(command).pipe(Effect.mapError((error) => startError(program, env["PATH"], error)))
    // Added after the spawner's own release, so it runs first: our bounds, our warning.
    yield* Effect.addFinalizer(() => stopGroup(program, handle, graceMs))
    const running: RunningChild = { pid: handle.pid, stdout: Stream.ignore(handle.stdout), stderr: Stream.ignore(handle.stderr), ended: endOf(handle) }
    return running
  })

/** The text of a stream, its last `cap` characters. */
const textOf = (bytes: Stream.Stream<Uint8Array>, cap: number, onText: (text: string) => void = () => undefined) =>
  Stream.runFold(Stream.decodeText(bytes), () => "", (kept, text) => {
    const now = (kept + text).slice(-cap)
    onText(now)
    return now
  })

/**
 * Runs `program` to its end, at most `timeoutMs`. Fails only when it cannot start or runs too
 * long; a non-zero exit is in the answer (`runChecked` makes it a failure).
 */
export const runChild = (
  program: string,
  args: ReadonlyArray<string>,
  options: RunOptions
): Effect.Effect<ChildOutput, ChildStartError | ChildTimedOut> => {
  const cap = options.outputCap ?? defaultOutputCap
  let stderrSoFar = ""
  const run = Effect.scoped(Effect.gen(function*() {
    const child = yield* spawnChild(program, args, options)
    const [stdout, stderr, end] = yield* Effect.all(
      [textOf(child.stdout, cap), textOf(child.stderr, cap, (text) => void (stderrSoFar = text)), child.ended],
      { concurrency: "unbounded" }
    )
    return { ...end, stdout, stderr }
  }))
  return Effect.timeoutOrElse(run, {
    duration: options.timeoutMs,
    orElse: () => {
      const said = lastLine(stderrSoFar)
      const message = `${program} did not finish within ${options.timeoutMs} ms and was stopped${said === "" ? "" : `; it last said: ${said}`}`
      return Effect.fail(new ChildTimedOut({ program, timeoutMs: options.timeoutMs, stderr: stderrSoFar, message }))
    }
  })
}

/** `runChild`, failing with ChildFailed (stderr's last line in its message) unless the program exits 0. */
export const runChecked = (
  program: string,
  args: ReadonlyArray<string>,
  options: RunOptions
): Effect.Effect<ChildOutput, ChildStartError | ChildTimedOut | ChildFailed> =>
  Effect.flatMap(runChild(program, args, options), (output) => {
    if (output.exitCode === 0) return Effect.succeed(output)
    const said = lastLine(output.stderr)
    const message = `${program} ${describeEnd(output)}${said === "" ? "" : `: ${said}`}`
    return Effect.fail(new ChildFailed({ program, exitCode: output.exitCode, signal: output.signal, stderr: output.stderr, message }))
  })
