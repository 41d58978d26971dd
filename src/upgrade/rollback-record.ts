import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect, Schema } from "effect"

/**
 * The record of an automatic rollback: written by the upgrade guard into the package's directory,
 * read by the daemon (status page, /status.json, /metrics, the journal). Both sides decode it with
 * this schema; a kind of failure an older daemon does not know is still shown (a plain string).
 */
export const RollbackRecord = Schema.Struct({
  /** When the guard gave up on the new version (ISO 8601). */
  at: Schema.String,
  /** The upgrade that was rolled back: from the kept version… */
  from: Schema.String,
  /** …to the new one, which failed its watch. */
  to: Schema.String,
  /** What the guard saw, for people. */
  reason: Schema.String,
  /** never_ready, down, restart_loop or not_delivering (guard-rules.ts): the metric's reason_kind. */
  reasonKind: Schema.String,
  /** True once dpkg reports the kept version installed again. */
  reinstalled: Schema.Boolean,
  /** On hold, so unattended upgrades do not bring the failed version back. */
  held: Schema.Boolean,
  /** Why going back did not work, or did only in part. */
  error: Schema.optionalKey(Schema.String)
})
export type RollbackRecord = typeof RollbackRecord.Type

/** The package's own directory: the kept previous package and the rollback record (root-owned, 0755). */
export const defaultPackageDirectory = "/var/lib/scorebridge-package"

/** $SCOREBRIDGE_PACKAGE_DIR (tests), else the package's directory. */
export const packageDirectory = (env: NodeJS.ProcessEnv = process.env): string => env["SCOREBRIDGE_PACKAGE_DIR"] ?? defaultPackageDirectory

export const rollbackFile = (directory: string): string => join(directory, "rollback.json")

export class RollbackRecordError extends Schema.TaggedError<RollbackRecordError>()("RollbackRecordError", {
  file: Schema.String,
  message: Schema.String
}) {}

/**
 * Writes the record whole or not at all (a temporary file, fsynced, renamed over the old one),
 * 0644: the daemon runs as a dynamic user and must read it.
 */
export const writeRollbackRecord = (directory: string, record: RollbackRecord) =>
  Effect.try({
    try: () => {
      mkdirSync(directory, { recursive: true, mode: 0o755 })
      const file = rollbackFile(directory)
      const temporary = `${file}.${process.pid}.tmp`
      const fd = openSync(temporary, "w", 0o644)
      try {
        // Whatever the guard's umask.
        fchmodSync(fd, 0o644)
        writeSync(fd, `${JSON.stringify(Schema.encodeSync(RollbackRecord)(record), null, 2)}\n`)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temporary, file)
      return file
    },
    catch: (e) =>
      new RollbackRecordError({ file: rollbackFile(directory), message: `cannot write the rollback record: ${(e as Error).message}` })
  })

/**
 * A later upgrade that passed its watch closes the story: the record goes, so the status page's
 * banner and the fleet's alert end with it.
 */
export const clearRollbackRecord = (directory: string) =>
  Effect.try({
    try: () => rmSync(rollbackFile(directory), { force: true }),
    catch: (e) => new RollbackRecordError({ file: rollbackFile(directory), message: `cannot remove the rollback record: ${(e as Error).message}` })
  })
