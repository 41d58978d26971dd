import { Clock, Deferred, Effect, Queue, Result, Schema, Stream } from "effect"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { superviseLink } from "./link-supervisor.ts"

export interface GpiomonOptions {
  /** The program to run; default `gpiomon` from Debian's `gpiod` package. */
  readonly command?: string
  /** `gpiochip0`, `0` or `/dev/gpiochip0`. */
  readonly chip: string
  /** Line offsets on the chip. */
  readonly lines: ReadonlyArray<number>
  /** libgpiod major version; "auto" (the default) asks `gpiomon --version` once. */
  readonly version?: 1 | 2 | "auto"
}

export class GpiomonStartError extends Schema.TaggedError<GpiomonStartError>()("GpiomonStartError", {
  command: Schema.String,
  message: Schema.String
}) {}

/**
 * The arguments for each libgpiod generation; their option letters clash, so they cannot be shared.
 * v1 (`gpiomon [-b] <chip> <offsets>`): `-b` line-buffers its piped output, without which edges
 * arrive late and in bursts. v2 (`gpiomon -c <chip> [-E clock] <offsets>`, where `-b` means bias)
 * flushes after every read by itself; `-E realtime` stamps edges on the wall clock, printed as UTC.
 */
export const gpiomonArguments = (version: 1 | 2, chip: string, lines: ReadonlyArray<number>): Array<string> =>
  version === 1
    ? ["-b", chip, ...lines.map(String)]
    : ["-c", chip, "-E", "realtime", ...lines.map(String)]

/** The major version in `gpiomon --version` output (`gpiomon (libgpiod) v2.1.3`), if it is one we know. */
export const parseGpiomonVersion = (text: string): 1 | 2 | undefined => {
  const major = /\bv(\d+)\.\d+/.exec(text)?.[1]
  return major === undefined ? undefined : Number(major) <= 1 ? 1 : 2
}

/** How long a terminated gpiomon gets to exit before it is killed. */
const termGraceMs = 1_000
/** Data still in the pipe when gpiomon exits is awaited this long; a stray grandchild may hold it open. */
const drainAfterExitMs = 1_000
const stderrWindowMs = 60_000
const stderrLinesPerWindow = 5
const maxStderrLineChars = 500

/**
 * The output of `gpiomon` watching GPIO lines, each chunk stamped when it arrived; the gpiomon
 * decoder reads the lines. Never fails and never ends on its own: when gpiomon cannot start or
 * exits (line busy, no permission on /dev/gpiochip*) it reports `disconnected`, with gpiomon's
 * last stderr line in the reason, and starts it again on `reconnectSchedule`. Its stderr is logged,
 * a few lines a minute. Interruption ends gpiomon: SIGTERM, then SIGKILL after 1 s.
 *
 * gpiomon runs in its own process group, so that a wrapper script (sudo, a shell) is ended together
 * with what it started; under systemd the service's cgroup still holds it if the daemon is killed.
 */
export const gpiomonChunks = (options: GpiomonOptions, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> => {
  const command = options.command ?? "gpiomon"
  let version = options.version === "auto" || options.version === undefined ? undefined : options.version
  const knownVersion = Effect.suspend(() =>
    version === undefined ? detectVersion(command).pipe(Effect.tap((detected) => Effect.sync(() => (version = detected)))) : Effect.succeed(version)
  )
  return Stream.callback<ReceivedChunk>(Effect.fnUntraced(function*(queue) {
    const stderr = yield* Queue.sliding<string>(32)
    yield* Effect.forkScoped(logStderr(stderr))
    return yield* superviseLink({
      target: `${command} ${options.chip} ${options.lines.join(" ")}`,
      noun: "gpiomon",
      onState,
      session: (connected) =>
        Effect.gen(function*() {
          const detected = yield* Effect.result(knownVersion)
          if (Result.isFailure(detected)) return detected.failure.message
          return yield* runSession(command, gpiomonArguments(detected.success, options.chip, options.lines), connected, {
            chunk: (chunk) => Queue.offerUnsafe(queue, chunk),
            stderr: (line) => Queue.offerUnsafe(stderr, line)
          })
        })
    })
  }, Effect.annotateLogs({ gpiochip: options.chip })))
}

interface Sinks {
  readonly chunk: (chunk: ReceivedChunk) => void
  readonly stderr: (line: string) => void
}

const detectVersion = (command: string) =>
  Effect.callback<1 | 2, GpiomonStartError>((done) => {
    const fail = (message: string) => done(Effect.fail(new GpiomonStartError({ command, message })))
    const child = execFile(command, ["--version"], { timeout: 5_000 }, (err, stdout, stderr) => {
      const detected = parseGpiomonVersion(`${stdout}\n${stderr}`)
      if (detected !== undefined) done(Effect.succeed(detected))
      else if (err !== null && !isExitCode(err)) fail(describeStartError(command, err))
      else fail(`cannot tell the libgpiod version from \`${command} --version\`; configure version 1 or 2`)
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** One gpiomon process, from start to exit; returns why it ended. */
const runSession = Effect.fnUntraced(function*(
  command: string,
  args: Array<string>,
  connected: Effect.Effect<void>,
  sinks: Sinks
) {
  const ended = yield* Deferred.make<string>()
  const clock = yield* Clock.Clock
  const started = yield* Effect.result(Effect.acquireRelease(start(command, args, sinks, ended, clock), stop))
  if (Result.isFailure(started)) return started.failure.message
  yield* connected
  yield* Effect.logDebug(`started ${command} ${args.join(" ")}`)
  return yield* Deferred.await(ended)
})

const start = (command: string, args: Array<string>, sinks: Sinks, ended: Deferred.Deferred<string>, clock: Clock.Clock) =>
  Effect.callback<ChildProcess, GpiomonStartError>((done) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true })
    let spawned = false
    let lastStderr = ""
    let partial = ""
    const end = (reason: string) => Deferred.doneUnsafe(ended, Effect.succeed(reason))
    // Stamped first thing: with `-E realtime` the edge time is gpiomon's, but v1 and monotonic times lean on it.
    child.stdout!.on("data", (bytes: Buffer) => sinks.chunk({ bytes, receivedAt: clock.currentTimeMillisUnsafe() }))
    child.stderr!.on("data", (bytes: Buffer) => {
      const pieces = (partial + bytes.toString("utf8")).split("\n")
      partial = pieces.pop()!.slice(0, maxStderrLineChars)
      for (const piece of pieces) {
        const line = piece.trim().slice(0, maxStderrLineChars)
        if (line.length === 0) continue
        lastStderr = line
        sinks.stderr(line)
      }
    })
    child.on("spawn", () => {
      spawned = true
      done(Effect.succeed(child))
    })
    child.on("error", (err) => {
      if (!spawned) done(Effect.fail(new GpiomonStartError({ command, message: describeStartError(command, err) })))
      else end(`${command} failed: ${err.message}`)
    })
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      const how = signal === null ? `exited with code ${code}` : `was ended by ${signal}`
      const said = (lastStderr || partial.trim()).length > 0 ? `: ${lastStderr || partial.trim()}` : ""
      end(`${command} ${how}${said}`)
    }
    // `close` comes once stdout is drained too, so the last edges are delivered before the restart.
    child.on("close", exited)
    child.on("exit", (code, signal) => setTimeout(() => exited(code, signal), drainAfterExitMs).unref())
  })

/** SIGTERM to gpiomon's process group, SIGKILL if it is still there after the grace period. */
const stop = (child: ChildProcess) =>
  Effect.gen(function*() {
    const exit = Effect.callback<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) done(Effect.void)
      else child.once("exit", () => done(Effect.void))
    })
    signalGroup(child, "SIGTERM")
    const gone = yield* Effect.timeoutOption(exit, termGraceMs)
    if (gone._tag === "None") {
      yield* Effect.logWarning(`gpiomon ignored SIGTERM for ${termGraceMs} ms; killing it`)
    }
    // Also reaches anything the command left behind in its group, whether or not it exited itself.
    signalGroup(child, "SIGKILL")
    yield* Effect.timeoutOption(exit, termGraceMs)
  })

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal)
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** gpiomon's stderr in the log, at most a few lines a minute: a failing line can repeat for hours. */
const logStderr = Effect.fnUntraced(function*(lines: Queue.Dequeue<string>) {
  let windowStart = Number.NEGATIVE_INFINITY
  let logged = 0
  let suppressed = 0
  for (;;) {
    const line = yield* Queue.take(lines)
    const now = yield* Clock.currentTimeMillis
    if (now - windowStart >= stderrWindowMs) {
      if (suppressed > 0) yield* Effect.logWarning(`gpiomon: ${suppressed} more stderr lines were not logged`)
      windowStart = now
      logged = 0
      suppressed = 0
    }
    if (logged < stderrLinesPerWindow) {
      logged++
      yield* Effect.logWarning(`gpiomon: ${line}`)
    } else {
      suppressed++
      // Debug only: says a line was read and held back (what a test waits on before counting).
      yield* Effect.logDebug(`gpiomon: stderr line not logged (${suppressed} this minute)`)
    }
  }
})

const isExitCode = (err: Error): boolean => typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === "number"

const describeStartError = (command: string, err: Error): string => {
  const code = (err as NodeJS.ErrnoException).code
  if (code === "ENOENT") return `${command} not found: apt-get install gpiod`
  if (code === "EACCES") return `${command} cannot be run: permission denied`
  return `${command} cannot be started: ${err.message}`
}
