import * as fs from "node:fs"
import * as path from "node:path"
import type { DatabaseSync } from "node:sqlite"

/** The write-ahead log's size on disk: room for the 500 commits between two checkpoints. */
export const logFileBytes = 16 * 1024 * 1024

/**
 * The outbox's two files as the daemon syncs them itself: SQLite commits into the page cache
 * (`synchronous = OFF`, no automatic checkpoints) and the daemon fsyncs off the event loop (see
 * GroupCommit and Checkpointer). Why this is as durable as `synchronous = FULL`:
 * - a commit is acknowledged or sent only after an fsync of the write-ahead log that started
 *   after it (Linux fsync flushes the file, whichever descriptor wrote it);
 * - a checkpoint copies only frames already on disk into the database file, and the database
 *   file is fsynced before SQLite may start the log over (the log's frames are its only other
 *   copy);
 * - a new log file's directory entry is fsynced at open;
 * - on close, SQLite's final checkpoint runs with `synchronous = FULL`.
 * A power cut can lose only commits that nobody was told about yet.
 */
export interface OutboxFiles {
  /** fdatasync of the write-ahead log, on libuv's thread pool. */
  readonly syncLog: (done: (error: Error | null) => void) => void
  /** fdatasync of the database file, on libuv's thread pool. */
  readonly syncDatabase: (done: (error: Error | null) => void) => void
  /** Before the database closes: its last checkpoint syncs as SQLite would. */
  readonly restoreSqliteSyncing: () => void
  /** After the database closed. */
  readonly close: () => void
}

export const takeOverSyncing = (db: DatabaseSync, file: string): OutboxFiles => {
  db.exec("PRAGMA synchronous = OFF")
  db.exec("PRAGMA wal_autocheckpoint = 0")
  // The descriptors stay open as long as the database: closing any descriptor of a file drops
  // every POSIX lock this process holds on it, SQLite's included.
  const databaseFd = fs.openSync(file, "r")
  const logFd = fs.openSync(`${file}-wal`, "r+")
  // The log gets its full size now (a hole: no blocks yet). Growing it commit by commit changes
  // its size in the file's inode at each one, and on ext4 such a write can wait for a journal
  // commit that a slow card holds (measured: 210–250 ms on the event loop, a few times after each
  // start); frames written into the hole change only the data.
  if (fs.fstatSync(logFd).size < logFileBytes) fs.ftruncateSync(logFd, logFileBytes)
  // SQLite made the log at open (it is deleted at the last close); its directory entry is synced
  // here, where SQLite would at its first synchronous commit.
  syncDirectory(path.dirname(file))
  return {
    syncLog: (done) => fs.fdatasync(logFd, done),
    syncDatabase: (done) => fs.fdatasync(databaseFd, done),
    restoreSqliteSyncing: () => db.exec("PRAGMA synchronous = FULL"),
    close: () => {
      fs.closeSync(logFd)
      fs.closeSync(databaseFd)
    }
  }
}

export const syncDirectory = (directory: string): void => {
  const fd = fs.openSync(directory, "r")
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}
