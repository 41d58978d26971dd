import { Clock, Deferred, Effect, Queue, Result, Schema, Stream } from "effect"
import { close, createReadStream, fstat, open, type ReadStream, type Stats } from "node:fs"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { superviseLink } from "./link-supervisor.ts"

/** 64 records of 24 bytes: a burst of key events is read at once, and a read never ends mid-record needlessly. */
const readBytes = 24 * 64

export class InputDeviceOpenError extends Schema.TaggedError<InputDeviceOpenError>()("InputDeviceOpenError", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * Raw bytes from a Linux input device (`/dev/input/by-id/*-event-kbd`), each chunk stamped when it
 * arrived; the decoder frames the `struct input_event` records and uses their kernel timestamps.
 * Never fails and never ends on its own: a missing device (unplugged pedal), end of file or a
 * read error reports `disconnected` and the device is opened again on `reconnectSchedule`.
 * Interrupting the stream closes the file.
 *
 * Each open device keeps one libuv threadpool thread blocked in `read` (Node has no poll for
 * character devices): with more than two or three devices, raise `UV_THREADPOOL_SIZE` (default 4)
 * in the service's environment, or file and DNS work queues behind the idle reads. For the same
 * reason an interrupted read on an idle device closes its file only after the next event arrives.
 *
 * A FIFO or a regular file can stand in for the device. A FIFO is opened when a writer opens it
 * (the wait occupies a threadpool thread, not the event loop), and the writer closing it is a
 * disconnect. A regular file is followed like `tail -f`: after its end it is reopened where
 * reading stopped, unless it was replaced or truncated.
 */
export const inputDeviceChunks = (path: string, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) => {
    const resume: ResumePoint = { dev: -1, ino: -1, position: 0 }
    return superviseLink({
      target: path,
      noun: "input device",
      onState,
      session: (connected) =>
        readSession(path, resume, connected, (chunk) => {
          Queue.offerUnsafe(queue, chunk)
        })
    }).pipe(Effect.annotateLogs({ device: path }))
  })

/** Where reading a regular file stopped, so a reopen does not deliver its bytes twice. */
interface ResumePoint {
  dev: number
  ino: number
  position: number
}

const readSession = Effect.fnUntraced(function*(
  path: string,
  resume: ResumePoint,
  connected: Effect.Effect<void>,
  emit: (chunk: ReceivedChunk) => void
) {
  const opened = yield* Effect.result(
    // Interruptible: opening a FIFO waits for a writer, and shutdown must not wait with it.
    Effect.acquireRelease(openDevice(path, resume), ({ stream }) => Effect.sync(() => stream.destroy()), {
      interruptible: true
    })
  )
  if (Result.isFailure(opened)) return opened.failure.message
  const { stream, seekable } = opened.success
  yield* connected
  const lost = yield* Deferred.make<string>()
  const markLost = (reason: string) => Deferred.doneUnsafe(lost, Effect.succeed(reason))
  const clock = yield* Clock.Clock
  stream.on("data", (bytes: string | Buffer) => {
    const receivedAt = clock.currentTimeMillisUnsafe()
    // Without an encoding a ReadStream emits Buffers; its type cannot say so.
    if (typeof bytes === "string") return
    if (seekable) resume.position += bytes.length
    emit({ bytes, receivedAt })
  })
  // An unplugged device fails its read with ENODEV; a FIFO's writer closing, or a file's end, is EOF.
  stream.on("end", () => markLost("end of file"))
  stream.on("error", (err: Error) => markLost(`read error (${err.message})`))
  return yield* Deferred.await(lost)
})

interface OpenDevice {
  /** Paused until the session's listeners are on, so no byte flows unseen. */
  readonly stream: ReadStream
  /** A regular file, read from `resume.position`. */
  readonly seekable: boolean
}

const openDevice = (path: string, resume: ResumePoint) =>
  Effect.callback<OpenDevice, InputDeviceOpenError>((done) => {
    let abandoned = false
    const fail = (err: Error) => done(Effect.fail(new InputDeviceOpenError({ path, message: err.message })))
    open(path, "r", (openError, fd) => {
      if (openError !== null) {
        if (!abandoned) fail(openError)
        return
      }
      fstat(fd, (statError, stats) => {
        if (abandoned || statError !== null) {
          close(fd, () => {})
          if (statError !== null && !abandoned) fail(statError)
          return
        }
        const start = resumeAt(resume, stats)
        const stream = createReadStream(path, { fd, highWaterMark: readBytes, ...(start === undefined ? {} : { start }) })
        done(Effect.succeed({ stream, seekable: start !== undefined }))
      })
    })
    // An open that completes after interruption (a FIFO whose writer came late) is closed at once.
    return Effect.sync(() => {
      abandoned = true
    })
  })

/** The offset to read a regular file from; undefined for devices and FIFOs, which cannot seek. */
const resumeAt = (resume: ResumePoint, stats: Stats): number | undefined => {
  const sameFile = stats.isFile() && stats.dev === resume.dev && stats.ino === resume.ino && stats.size >= resume.position
  resume.dev = stats.isFile() ? stats.dev : -1
  resume.ino = stats.isFile() ? stats.ino : -1
  if (!sameFile) resume.position = 0
  return stats.isFile() ? resume.position : undefined
}
