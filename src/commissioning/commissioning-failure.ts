import { Runtime, Schema } from "effect"

/**
 * Why a command of the installation (sniff, capture, learn, doctor, overlay-preview) could not do
 * its job, and the exit code saying so. `message` is what the technician reads.
 */
export class CommissioningFailure extends Schema.TaggedError<CommissioningFailure>()("CommissioningFailure", {
  message: Schema.String,
  exitCode: Schema.Int
}) {
  get [Runtime.errorExitCode](): number {
    return this.exitCode
  }
  // The command prints the message itself: no stack trace from runMain.
  readonly [Runtime.errorReported] = false
}

/** Bad flags, or a port or file that cannot be used. */
export const exitUsage = 2
