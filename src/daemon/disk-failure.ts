import { Effect, Runtime, Schema } from "effect"
import type { OutboxWriteError } from "../delivery/outbox-errors.ts"

/** EX_IOERR: not 78, so systemd's Restart=on-failure starts the daemon again. */
const exitDiskFailed = 74

/**
 * The release normally takes about 4 s (the broker connection's goodbye waits 2 s for the press
 * that was never acknowledged); past this, the process kills itself.
 */
const releaseDeadlineMs = 10_000

/**
 * The disk failed to store the outbox's writes. After a failed fsync Linux may have dropped the
 * pages it could not write, so only a new process that reads the file back can trust it: the
 * daemon ends, and systemd starts it again. Nothing acknowledged or sent is lost (it was on disk
 * before); presses not acknowledged come again from the broker.
 */
export class OutboxDiskFailed extends Schema.TaggedError<OutboxDiskFailed>()("OutboxDiskFailed", {
  message: Schema.String
}) {
  readonly [Runtime.errorExitCode] = exitDiskFailed
  // Logged as a fatal line by `endOnDiskFailure`: no stack trace from runMain.
  readonly [Runtime.errorReported] = false
}

/**
 * Says why at fatal level and fails with the exit status. A release stuck behind the failing disk
 * (an fsync that never returns holds process.exit, which joins libuv's threadpool) must not keep
 * a broken daemon running: past the deadline the process kills itself, which systemd also counts
 * as a failure to restart.
 */
export const endOnDiskFailure = (error: OutboxWriteError) =>
  Effect.gen(function*() {
    yield* Effect.logFatal(error.message)
    yield* Effect.sync(() =>
      setTimeout(() => {
        process.stderr.write(`scorebridge: release after the disk failure did not finish within ${releaseDeadlineMs} ms; ending now\n`)
        process.kill(process.pid, "SIGKILL")
      }, releaseDeadlineMs).unref()
    )
    return yield* new OutboxDiskFailed({ message: error.message })
  })
