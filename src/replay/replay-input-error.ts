import { Runtime, Schema } from "effect"

/**
 * Something wrong with what support asked `replay` to do: a file that cannot be
 * read, an unknown protocol or sport, options the protocol rejects. The command
 * prints `message` as one line on stderr and the process exits 2, the usual
 * usage-error code, so scripts can tell "asked wrongly" from "replay crashed".
 */
export class ReplayInputError extends Schema.TaggedError<ReplayInputError>()("ReplayInputError", {
  message: Schema.String
}) {
  readonly [Runtime.errorExitCode] = 2
  // Already printed by the command as one plain line: no stack trace from runMain.
  readonly [Runtime.errorReported] = false
}
