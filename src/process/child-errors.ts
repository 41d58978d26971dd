import { Schema } from "effect"

/**
 * The program could not be started: not found (on the PATH given to it, or at the path named),
 * not executable, or refused by the system. `reason` lets a caller say what to install or fix.
 */
export class ChildStartError extends Schema.TaggedError<ChildStartError>()("ChildStartError", {
  program: Schema.String,
  reason: Schema.Literals(["not-found", "permission-denied", "other"]),
  message: Schema.String
}) {}

/** The program ran past its time and was stopped (its process group: SIGTERM, then SIGKILL). */
export class ChildTimedOut extends Schema.TaggedError<ChildTimedOut>()("ChildTimedOut", {
  program: Schema.String,
  timeoutMs: Schema.Number,
  /** What it had said on stderr by then (its last lines). */
  stderr: Schema.String,
  message: Schema.String
}) {}

/** The program ran and ended badly: a non-zero exit code or a signal. */
export class ChildFailed extends Schema.TaggedError<ChildFailed>()("ChildFailed", {
  program: Schema.String,
  exitCode: Schema.NullOr(Schema.Number),
  signal: Schema.NullOr(Schema.String),
  stderr: Schema.String,
  message: Schema.String
}) {}

/** How a child ended: an exit code, or (exitCode null) the signal that ended it. */
export interface ChildEnd {
  readonly exitCode: number | null
  readonly signal: string | null
}

/** "exited with code 1", "was ended by SIGKILL". */
export const describeEnd = (end: ChildEnd): string =>
  end.exitCode === null ? `was ended by ${end.signal ?? "a signal"}` : `exited with code ${end.exitCode}`

/** The last non-empty line of what a program said: the one that usually names what went wrong. */
export const lastLine = (text: string): string =>
  text.split("\n").map((line) => line.trim()).filter((line) => line !== "").at(-1) ?? ""
