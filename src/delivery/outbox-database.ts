import * as fs from "node:fs"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describeFailure } from "./outbox-errors.ts"
import { logFileBytes, syncDirectory } from "./outbox-files.ts"

/**
 * Opening the outbox file: checks the state directory first (SQLite alone only says "unable to
 * open database file"), sets durability, verifies the file and brings its schema up to date.
 * Throws; the service turns the throw into an OutboxOpenError.
 */

export const outboxFileName = "outbox.sqlite"

// Each entry moves the schema from version index to index + 1 (PRAGMA user_version).
const migrations: ReadonlyArray<string> = [
  `CREATE TABLE items (
     -- AUTOINCREMENT: ids are never reused, even after prune deletes the newest rows.
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     place       TEXT    NOT NULL,
     kind        TEXT    NOT NULL CHECK (kind IN ('click', 'score', 'undo')),
     payload     TEXT    NOT NULL,
     event_key   TEXT,
     dedupe_key  TEXT    UNIQUE,
     created_at  INTEGER NOT NULL,
     attempts    INTEGER NOT NULL DEFAULT 0,
     not_before  INTEGER NOT NULL,
     state       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (state IN ('pending', 'delivered', 'warning', 'dead', 'missed')),
     last_error  TEXT,
     result      TEXT,
     settled_at  INTEGER
   ) STRICT;
   -- heads: one seek per lane, whatever the number of settled items.
   CREATE INDEX items_pending ON items (place, kind, id) WHERE state = 'pending';
   CREATE INDEX items_lane ON items (place, kind, id);
   CREATE INDEX items_place ON items (place, id);
   CREATE INDEX items_dead ON items (id) WHERE state = 'dead';
   CREATE INDEX items_prunable ON items (settled_at) WHERE state IN ('delivered', 'warning');`,
  // An attempt in doubt: written before each request, cleared by a definite answer. Set at start-up,
  // it means the service may already have the item (kill -9, timeout, reset): reconcile first.
  `ALTER TABLE items ADD COLUMN sent_at INTEGER;
   ALTER TABLE items ADD COLUMN sent_to TEXT;`,
  // The broker message an item was made from (MQTT packet id, topic, payload digest), written with
  // the item: a redelivery after a restart is recognised even if the process died before its PUBACK.
  `ALTER TABLE items ADD COLUMN received_as TEXT;
   CREATE INDEX items_received_as ON items (received_as, created_at) WHERE received_as IS NOT NULL;`,
  // A click the service accepted is followed until its clip exists (see follow-up.ts): one row per
  // click, written with the click's settlement. Press identities: the last count (or stamp) a
  // button source gave, stored with the press's item, so a re-publish after a restart is known.
  `CREATE TABLE follow_ups (
     click_id     INTEGER PRIMARY KEY,
     place        TEXT    NOT NULL,
     moment_key   TEXT    NOT NULL,
     pressed_at   INTEGER NOT NULL,
     accepted_at  INTEGER NOT NULL,
     reads        INTEGER NOT NULL DEFAULT 0,
     next_read_at INTEGER NOT NULL,
     outcome      TEXT    CHECK (outcome IN ('clip-ready', 'no-clip', 'deleted', 'unchecked')),
     detail       TEXT,
     last_error   TEXT,
     settled_at   INTEGER
   ) STRICT;
   CREATE INDEX follow_ups_due ON follow_ups (next_read_at) WHERE outcome IS NULL;
   CREATE INDEX follow_ups_place ON follow_ups (place, click_id);
   CREATE TABLE press_identities (
     slot      TEXT    PRIMARY KEY,
     identity  TEXT    NOT NULL,
     item_id   INTEGER NOT NULL,
     seen_at   INTEGER NOT NULL
   ) STRICT;`
]

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

const migrate = (db: DatabaseSync, file: string): void => {
  const version = Number(db.prepare("PRAGMA user_version").get()?.["user_version"] ?? 0)
  if (version > migrations.length) {
    throw new OpenFailure(
      `it was written by a newer scorebridge (schema version ${version}, this one knows up to ${migrations.length})`
    )
  }
  // BEGIN IMMEDIATE takes the write lock even with nothing to migrate: a file that cannot be
  // written fails here, at start-up, rather than on the first acknowledged input.
  db.exec("BEGIN IMMEDIATE")
  try {
    for (let next = version; next < migrations.length; next++) db.exec(migrations[next]!)
    db.exec(`PRAGMA user_version = ${migrations.length}`)
    db.exec("COMMIT")
  } catch (cause) {
    db.exec("ROLLBACK")
    throw cause
  }
  // A new file's directory entry must reach the disk too, or a power cut can lose the whole file.
  if (version === 0) syncDirectory(path.dirname(file))
}


/**
 * SQLite's page cache, in KiB (negative: a size, not a page count). Its default, 2 MB, fills as
 * soon as the file is larger: the quick check below reads every page, and the counts for systemd's
 * status line read the whole table every 30 s. With three days of a busy venue's history (36,000
 * items, 24 MB) that was 2.2 MB more of the daemon's resident memory than with 512 kB, for pages
 * the kernel's cache holds anyway; the counts took as long (80–87 ms). 512 kB hold what is read
 * over and over: the indexes' upper levels and the pending heads.
 */
export const pageCacheSize = -512

export const openOutboxDatabase = (stateDirectory: string): DatabaseSync => {
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
    const check = db.prepare("PRAGMA quick_check(1)").get()?.["quick_check"]
    if (check !== "ok") {
      const detail = String(check).replace(/\*\*\* in database main \*\*\*/, "").replace(/\s+/g, " ").trim()
      throw new OpenFailure(`the file is corrupt (${detail}); move it aside to start with an empty outbox`)
    }
    migrate(db, file)
    return db
  } catch (cause) {
    db.close()
    throw cause
  }
}
