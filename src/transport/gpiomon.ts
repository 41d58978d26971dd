import { Clock, Effect, Fiber, Queue, Result, Schema, Stream } from "effect"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { type ChildStartError, describeEnd } from "../process/child-errors.ts"
import { runChild, spawnChild } from "../process/child-process.ts"
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

/** How long a stopped gpiomon gets between SIGTERM and SIGKILL. */
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
  runChild(command, ["--version"], { timeoutMs: 5_000 }).pipe(
    Effect.mapError((error) => new GpiomonStartError({ command, message: error._tag === "ChildStartError" ? describeStartError(command, error) : error.message })),
    Effect.flatMap((ran) => {
      const detected = parseGpiomonVersion(`${ran.stdout}\n${ran.stderr}`)
      if (detected !== undefined) return Effect.succeed(detected)
      return Effect.fail(new GpiomonStartError({ command, message: `cannot tell the libgpiod version from \`${command} --version\`; configure version 1 or 2` }))
    })
  )

/** What gpiomon said last on stderr, and the start of a line not yet ended. */
interface Said {
  last: string
  partial: string
}

/**
 * One gpiomon process, from start to exit; returns why it ended. The session's scope closing
 * stops it with its process group (src/process: SIGTERM, then SIGKILL after 1 s).
 */
const runSession = Effect.fnUntraced(function*(
  command: string,
  args: Array<string>,
  connected: Effect.Effect<void>,
  sinks: Sinks
) {
  const started = yield* Effect.result(spawnChild(command, args, { stopGraceMs: termGraceMs }))
  if (Result.isFailure(started)) return describeStartError(command, started.failure)
  const child = started.success
  const clock = yield* Clock.Clock
  const said: Said = { last: "", partial: "" }
  // Stamped first thing: with `-E realtime` the edge time is gpiomon's, but v1 and monotonic times lean on it.
  const stdout = yield* Effect.forkScoped(
    Stream.runForEach(child.stdout, (bytes) => Effect.sync(() => sinks.chunk({ bytes, receivedAt: clock.currentTimeMillisUnsafe() })))
  )
  const stderr = yield* Effect.forkScoped(readStderr(child.stderr, sinks.stderr, said))
  yield* connected
  yield* Effect.logDebug(`started ${command} ${args.join(" ")}`)
  const end = yield* child.ended
  // Its output read to the end, so the last edges are delivered before the restart; a while only.
  yield* Effect.timeoutOption(Fiber.awaitAll([stdout, stderr]), drainAfterExitMs)
  const last = said.last || said.partial.trim()
  return `${command} ${describeEnd(end)}${last.length > 0 ? `: ${last}` : ""}`
})

/** gpiomon's stderr as lines (each cut at 500 characters, a line without an end too), its last one kept. */
const readStderr = (bytes: Stream.Stream<Uint8Array>, sink: (line: string) => void, said: Said) =>
  Stream.runForEach(Stream.decodeText(bytes), (text) =>
    Effect.sync(() => {
      const pieces = (said.partial + text).split("\n")
      said.partial = pieces.pop()!.slice(0, maxStderrLineChars)
      for (const piece of pieces) {
        const line = piece.trim().slice(0, maxStderrLineChars)
        if (line.length === 0) continue
        said.last = line
        sink(line)
      }
    }))

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

const describeStartError = (command: string, error: ChildStartError): string => {
  if (error.reason === "not-found") return `${command} not found: apt-get install gpiod`
  if (error.reason === "permission-denied") return `${command} cannot be run: permission denied`
  return error.message
}
