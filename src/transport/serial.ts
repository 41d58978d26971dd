import { Clock, Deferred, Duration, Effect, Queue, Result, Schedule, Schema, Stream } from "effect"
import { statSync } from "node:fs"
import { SerialPort } from "serialport"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { promptReadBinding } from "./prompt-serial-reads.ts"
import { reconnectSchedule } from "./reconnect-schedule.ts"

/** One serial line, as configured for a controller (defaults come from its protocol definition). */
export interface SerialOptions {
  readonly path: string
  readonly baudRate: number
  readonly dataBits: 7 | 8
  readonly parity: "none" | "even" | "odd"
  readonly stopBits: 1 | 2
}

export class SerialOpenError extends Schema.TaggedError<SerialOpenError>()("SerialOpenError", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * Raw bytes from a serial port, each chunk stamped when it arrived. Never fails and never ends
 * on its own: whenever the port cannot be opened or dies (unplugged adapter, pty whose peer
 * vanished, read error) it reports `disconnected` and opens a new port on `reconnectSchedule`.
 * Interrupting the stream closes the port.
 */
export const serialChunks = (
  options: SerialOptions,
  onState: (state: LinkState) => void
): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) =>
    superviseLink(options, onState, (chunk) => {
      Queue.offerUnsafe(queue, chunk)
    })
  )

interface SessionEnd {
  readonly wasConnected: boolean
  readonly reason: string
}

const superviseLink = Effect.fnUntraced(function*(
  options: SerialOptions,
  onState: (state: LinkState) => void,
  emit: (chunk: ReceivedChunk) => void
) {
  const target = options.path
  let backoff = yield* Schedule.toStep(reconnectSchedule)
  let lastReason: string | undefined

  const attempt = Effect.gen(function*() {
    onState({ _tag: "connecting", target })
    yield* Effect.logDebug("opening serial port")
    const end = yield* Effect.scoped(session(options, emit, onState))
    if (end.wasConnected) {
      backoff = yield* Schedule.toStep(reconnectSchedule)
    }
    const now = yield* Clock.currentTimeMillis
    // The schedule is unbounded, so the step never reports that it is done.
    const [, delay] = yield* Effect.orDie(backoff(now, undefined))
    const retryInMs = Math.round(Duration.toMillis(delay))
    onState({ _tag: "disconnected", target, reason: end.reason, retryInMs })
    // An absent adapter fails the same way every couple of seconds for hours: warn once per cause.
    const message = `serial port ${end.wasConnected ? "lost" : "unavailable"}: ${end.reason}; retrying in ${retryInMs} ms`
    yield* (end.reason === lastReason ? Effect.logDebug(message) : Effect.logWarning(message))
    lastReason = end.wasConnected ? undefined : end.reason
    yield* Effect.sleep(delay)
  })

  return yield* Effect.forever(attempt).pipe(Effect.annotateLogs({ port: target }))
})

/** One open port, from open to loss. */
const session = Effect.fnUntraced(function*(
  options: SerialOptions,
  emit: (chunk: ReceivedChunk) => void,
  onState: (state: LinkState) => void
) {
  const lost = yield* Deferred.make<string>()
  const clock = yield* Clock.Clock
  const opened = yield* Effect.result(Effect.acquireRelease(openPort(options, emit, lost, clock), closePort))
  if (Result.isFailure(opened)) {
    return { wasConnected: false, reason: opened.failure.message } satisfies SessionEnd
  }
  onState({ _tag: "connected", target: options.path })
  yield* Effect.log("serial port connected")
  yield* Effect.forkScoped(watchPath(options.path, lost))
  const reason = yield* Deferred.await(lost)
  return { wasConnected: true, reason } satisfies SessionEnd
})

const openPort = (options: SerialOptions, emit: (chunk: ReceivedChunk) => void, lost: Deferred.Deferred<string>, clock: Clock.Clock) =>
  Effect.callback<SerialPort, SerialOpenError>((resume) => {
    const fail = (err: unknown) =>
      resume(Effect.fail(new SerialOpenError({ path: options.path, message: describe(err) })))
    let port: SerialPort
    try {
      port = new SerialPort({
        path: options.path,
        baudRate: options.baudRate,
        dataBits: options.dataBits,
        parity: options.parity,
        stopBits: options.stopBits,
        autoOpen: false,
        // Bytes read (and so stamped) in the loop's turn that finds them: see prompt-serial-reads.ts.
        // serialport's constructor hands `binding` on to its stream, though its type leaves it out.
        binding: promptReadBinding
      } as ConstructorParameters<typeof SerialPort>[0])
    } catch (err) {
      fail(err)
      return
    }
    // Registered before anything else and stamped first thing: receive time is the controller's clock.
    port.on("data", (bytes: Buffer) => emit({ bytes, receivedAt: clock.currentTimeMillisUnsafe() }))
    const markLost = (reason: string) => Deferred.doneUnsafe(lost, Effect.succeed(reason))
    // Every way a port dies ends the session; the first one seen names the cause.
    // A pty whose socat ended fails its pending read with EIO, which serialport turns into a
    // close with `disconnected`, like an unplugged USB adapter.
    port.on("close", (err: (Error & { disconnected?: boolean }) | null) =>
      markLost(err ? `disconnected (${err.message})` : "port closed")
    )
    port.on("error", (err: Error) => markLost(`port error (${err.message})`))
    port.on("end", () => markLost("port ended"))
    port.open((err) => (err ? fail(err) : resume(Effect.succeed(port))))
  })

const closePort = (port: SerialPort) =>
  Effect.callback<void>((resume) => {
    if (!port.isOpen) {
      resume(Effect.void)
      return
    }
    port.close(() => resume(Effect.void))
  }).pipe(
    // A wedged driver must not hold up shutdown; the fd goes with the process anyway.
    Effect.timeoutOption("2 seconds"),
    Effect.asVoid
  )

/** Device identity behind a path (a /dev/serial/by-id link or a socat pty link), or why there is none. */
const identity = (path: string): string => {
  try {
    const st = statSync(path)
    return `${st.dev}:${st.ino}:${st.rdev}`
  } catch (err) {
    return `gone (${(err as { code?: string }).code ?? describe(err)})`
  }
}

/**
 * serialport does not always report a pty whose peer vanished (seen under load: no close, no
 * error, reads just stop), and a replugged USB adapter can come back as a new device behind the
 * same by-id link. Either way the open port is dead: the path tells, so watch it.
 */
export const watchPath = (path: string, lost: Deferred.Deferred<string>) =>
  Effect.gen(function*() {
    const opened = identity(path)
    while (true) {
      yield* Effect.sleep(pathCheckMs)
      const now = identity(path)
      if (now === opened) continue
      return yield* Deferred.succeed(lost, now.startsWith("gone") ? `device path ${now}` : "device path now names another device")
    }
  })

const pathCheckMs = 500

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err))
