import * as fs from "node:fs"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describeFailure } from "./outbox-errors.ts"
import { logFileBytes, syncDirectory } from "./outbox-files.ts"
import { boundedCheck } from "./outbox-integrity.ts"
import { migrate, type NewerSchema } from "./outbox-schema.ts"

/**
 * Opening the outbox file: checks the state directory first (SQLite alone only says "unable to
 * open database file"), sets durability, checks what of the file it reads whole (the rest is
 * checked after the start: outbox-integrity.ts) and brings its schema up to date
 * (outbox-schema.ts). Throws; the service turns the throw into an OutboxOpenError.
 */

export const outboxFileName = "outbox.sqlite"

// Its message is already the reason in words; describeFailure passes it through.
class OpenFailure extends Error {}

const checkWritable = (target: string, what: string): void => {
  try {
    fs.accessSync(target, fs.constants.W_OK)
  } catch (cause) {
    throw new OpenFailure(`${what} is not writable: ${describeFailure(cause)}`)
  }
}

const checkDirectory = (directory: string): void => {
  let stat: fs.Stats
  try {
    stat = fs.statSync(directory)
  } catch (cause) {
    throw new OpenFailure(`state directory ${directory}: ${describeFailure(cause)}`)
  }
  if (!stat.isDirectory()) throw new OpenFailure(`state directory ${directory} is not a directory`)
  checkWritable(directory, `state directory ${directory}`)
}

/**
 * SQLite's page cache, in KiB (negative: a size, not a page count). Its default, 2 MB, filled as
 * soon as the file was larger, when the open's quick check read every page and the counts for
 * systemd's status line read the whole table every 30 s (both gone since: outbox-integrity.ts,
 * item_counts). With three days of a busy venue's history (36,000 items, 24 MB) that was 2.2 MB
 * more of the daemon's resident memory than with 512 kB, for pages the kernel's cache holds anyway.
 * 512 kB hold what is read over and over: the indexes' upper levels and the pending heads.
 */
export const pageCacheSize = -512

export interface OpenedOutbox {
  readonly db: DatabaseSync
  /** Set when the file's schema is newer than this bridge's and it was opened as it is: worth a line in the log. */
  readonly newer: NewerSchema | undefined
}

export const openOutboxDatabase = (stateDirectory: string): OpenedOutbox => {
  const file = path.join(stateDirectory, outboxFileName)
  checkDirectory(stateDirectory)
  if (fs.existsSync(file)) checkWritable(file, "the file")
  const db = new DatabaseSync(file, { timeout: 5_000 })
  try {
    const mode = db.prepare("PRAGMA journal_mode = WAL").get()?.["journal_mode"]
    if (mode !== "wal") throw new OpenFailure(`the file system does not support write-ahead logging (mode ${mode})`)
    db.exec(`PRAGMA cache_size = ${pageCacheSize}`)
    // FULL while opening and migrating; then the outbox syncs by itself, off the event loop
    // (outbox-files.ts), as durably.
    db.exec("PRAGMA synchronous = FULL")
    // Keeps the -wal file from staying at its high-water mark after a long outage; as large as
    // the size it is given at open (outbox-files.ts), which SQLite then leaves alone.
    db.exec(`PRAGMA journal_size_limit = ${logFileBytes}`)
    // Bounded: the whole file is checked after the start, off the event loop (outbox-integrity.ts).
    const problems = boundedCheck(db)
    if (problems !== undefined) throw new OpenFailure(`the file is corrupt (${problems}); move it aside to start with an empty outbox`)
    const { from, newer } = migrate(db)
    // A new file's directory entry must reach the disk too, or a power cut can lose the whole file.
    if (from === 0) syncDirectory(path.dirname(file))
    return { db, newer }
  } catch (cause) {
    db.close()
    throw cause
  }
}
