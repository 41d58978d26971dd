import { Effect, Predicate, Schema } from "effect"

/**
 * Outbox failures, worded for the technician at the venue: which file, and what is wrong with it
 * in plain words, with the SQLite code in brackets for whoever reads the logs after them.
 */
export class OutboxOpenError extends Schema.TaggedError<OutboxOpenError>()("OutboxOpenError", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot open outbox ${this.path}: ${this.reason}`
  }
}

export class OutboxWriteError extends Schema.TaggedError<OutboxWriteError>()("OutboxWriteError", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot write ${this.path}: ${this.reason}`
  }
}

export class OutboxReadError extends Schema.TaggedError<OutboxReadError>()("OutboxReadError", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot read ${this.path}: ${this.reason}`
  }
}

/** The outbox could not be read or refused a write: whoever has the input decides to retry, report or stop. */
export type OutboxStorageError = OutboxReadError | OutboxWriteError

// Primary result codes (https://sqlite.org/rescode.html); node:sqlite reports them as `errcode`.
const sqliteReasons: Readonly<Record<number, string>> = {
  3: "permission denied (SQLITE_PERM)",
  5: "the file is locked by another process (SQLITE_BUSY)",
  6: "the file is locked (SQLITE_LOCKED)",
  7: "out of memory (SQLITE_NOMEM)",
  8: "the file or its file system is read-only (SQLITE_READONLY)",
  10: "the disk reported an input/output error (SQLITE_IOERR)",
  11: "the file is corrupt (SQLITE_CORRUPT); move it aside to start with an empty outbox",
  13: "disk full (SQLITE_FULL)",
  14: "the file cannot be opened (SQLITE_CANTOPEN)",
  26: "the file is not an outbox database (SQLITE_NOTADB); move it aside to start with an empty outbox"
}

const errnoReasons: Readonly<Record<string, string>> = {
  ENOENT: "the state directory does not exist",
  ENOTDIR: "part of the path is a file, not a directory",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOSPC: "disk full",
  EIO: "the disk reported an input/output error"
}

/** Turns whatever node:sqlite or node:fs threw into words; never includes payloads. */
export const describeFailure = (cause: unknown): string => {
  if (Predicate.hasProperty(cause, "errcode") && Predicate.isNumber(cause.errcode)) {
    // Extended codes carry the primary code in the low byte.
    const known = sqliteReasons[cause.errcode & 0xff]
    if (known !== undefined) return known
    const text = Predicate.hasProperty(cause, "errstr") && Predicate.isString(cause.errstr) ? cause.errstr : "error"
    return `${text} (SQLite code ${cause.errcode})`
  }
  if (Predicate.hasProperty(cause, "code") && Predicate.isString(cause.code)) {
    const known = errnoReasons[cause.code]
    if (known !== undefined) return `${known} (${cause.code})`
  }
  return cause instanceof Error ? cause.message : String(cause)
}

/** Runs a query of the outbox in `file`; what it throws becomes its OutboxReadError, in words. */
export const readingFrom = (file: string) => <A>(run: () => A): Effect.Effect<A, OutboxReadError> =>
  Effect.try({ try: run, catch: (cause) => new OutboxReadError({ path: file, reason: describeFailure(cause) }) })
