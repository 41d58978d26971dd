import type { DatabaseSync } from "node:sqlite"
import { bridgeVersion } from "../domain/version.ts"

/**
 * The outbox file's schema, one migration per version (PRAGMA user_version), and which bridges may
 * open it. As SQLite's own file format has a read version and a write version, a file records the
 * oldest schema whose code may still open it: a venue that goes back one version of the bridge
 * keeps delivering the pending items the newer one left, unless a migration since made that unsafe.
 *
 * The rule, for whoever adds a migration. Mark it `additive` only if a bridge of any schema from
 * the file's oldest reader on keeps reading AND writing the file correctly as it is:
 * - a new column that is nullable or has a default: older code names the columns it inserts, so
 *   its rows hold NULL (or the default) there, and the newer code must read NULL as "written by an
 *   older bridge"; older code updates only the columns it knows and leaves the new ones as they were;
 * - a new table or index that older code never touches; older code still prunes `items` and
 *   `follow_ups` as it always did, so a new table that refers to items must expect them gone;
 * - a trigger on a table older code writes, when it writes only a table of its own and cannot
 *   fail: it runs inside older code's statements too, which is how it stays right (item_counts);
 * - a new field in a payload that belongs to the service's body: a payload is the body as the
 *   service takes it, and an older bridge sends it as it is (the service stores fields it does not
 *   know).
 * How older code reads such a file: a row's columns it does not know are dropped when the row is
 * decoded (outbox-item.ts), a payload's fields are passed on unread, and a row it cannot decode at
 * all is passed over and left as it is (outbox-reads.ts), never marked dead.
 * Anything else is `breaking`. Above all a new item kind or state: the CHECKs on `kind` and `state`
 * refuse one, changing them means rebuilding the table, and an older bridge's heads query lists
 * the kinds it knows (outbox-statements.ts), so an unknown kind is not possible without a breaking
 * migration. Breaking too: dropping or renaming a column or table, a NOT NULL column without a
 * default, a new meaning for an existing column or payload field, and a field for the bridge
 * itself inside a payload (an older bridge would send it to the service): give it a column.
 */
export interface Migration {
  readonly change: "additive" | "breaking"
  readonly sql: string
}

// Each entry moves the schema from version index to index + 1. The first four predate the rule:
// code of those versions refuses every newer file, so they count as breaking.
export const migrations: ReadonlyArray<Migration> = [
  {
    change: "breaking",
    sql: `CREATE TABLE items (
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
   CREATE INDEX items_prunable ON items (settled_at) WHERE state IN ('delivered', 'warning');`
  },
  // An attempt in doubt: written before each request, cleared by a definite answer. Set at start-up,
  // it means the service may already have the item (kill -9, timeout, reset): reconcile first.
  {
    change: "breaking",
    sql: `ALTER TABLE items ADD COLUMN sent_at INTEGER;
   ALTER TABLE items ADD COLUMN sent_to TEXT;`
  },
  // The broker message an item was made from (MQTT packet id, topic, payload digest), written with
  // the item: a redelivery after a restart is recognised even if the process died before its PUBACK.
  {
    change: "breaking",
    sql: `ALTER TABLE items ADD COLUMN received_as TEXT;
   CREATE INDEX items_received_as ON items (received_as, created_at) WHERE received_as IS NOT NULL;`
  },
  // A click the service accepted is followed until its clip exists (see follow-up.ts): one row per
  // click, written with the click's settlement. Press identities: the last count (or stamp) a
  // button source gave, stored with the press's item, so a re-publish after a restart is known.
  {
    change: "breaking",
    sql: `CREATE TABLE follow_ups (
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
  },
  // The file's oldest reader, in a table of its own: every later bridge can read it whatever else
  // changed (PRAGMA application_id, the header's other free number, names the kind of file, not its
  // readers), and it has room for the bridge that wrote the schema, which a refusal names. Breaking:
  // a bridge before it does not know the rule and refuses any newer file anyway. This table stays
  // as it is in every later schema: each bridge reads it to decide whether it may open the file.
  {
    change: "breaking",
    sql: `CREATE TABLE file_format (
     one            INTEGER PRIMARY KEY CHECK (one = 1),
     -- The oldest schema version whose bridge may open the file: the newest breaking migration's.
     oldest_reader  INTEGER NOT NULL,
     -- The bridge (its version) that brought the file to its schema version.
     migrated_by    TEXT    NOT NULL
   ) STRICT;`
  },
  // Live first after a long outage (outbox-score-heads.ts, outbox-health.ts). Additive: a bridge
  // of schema 5 never names the new index or table, and the triggers live in the file, so they keep
  // the counts right whichever bridge writes (its statements only insert, settle and prune rows).
  {
    change: "additive",
    sql: `-- a place's pending scores by event: one seek for an event's oldest or newest, whatever the backlog.
   CREATE INDEX items_pending_event ON items (place, kind, event_key, id) WHERE state = 'pending';
   -- How many items each (place, kind, state, event_key) holds, kept as items change: the counts
   -- the status page, /metrics and systemd's status line read would otherwise scan the table.
   -- A key's row is deleted when its count reaches zero.
   CREATE TABLE item_counts (
     place      TEXT    NOT NULL,
     kind       TEXT    NOT NULL,
     state      TEXT    NOT NULL,
     event_key  TEXT,
     count      INTEGER NOT NULL
   ) STRICT;
   -- Not UNIQUE: NULL event keys are distinct to a UNIQUE index; the triggers keep one row per key.
   CREATE INDEX item_counts_key ON item_counts (state, kind, place, event_key);
   CREATE TRIGGER item_counts_insert AFTER INSERT ON items BEGIN
     INSERT INTO item_counts (place, kind, state, event_key, count)
       SELECT NEW.place, NEW.kind, NEW.state, NEW.event_key, 0
       WHERE NOT EXISTS (SELECT 1 FROM item_counts WHERE state = NEW.state AND kind = NEW.kind AND place = NEW.place AND event_key IS NEW.event_key);
     UPDATE item_counts SET count = count + 1 WHERE state = NEW.state AND kind = NEW.kind AND place = NEW.place AND event_key IS NEW.event_key;
   END;
   CREATE TRIGGER item_counts_delete AFTER DELETE ON items BEGIN
     UPDATE item_counts SET count = count - 1 WHERE state = OLD.state AND kind = OLD.kind AND place = OLD.place AND event_key IS OLD.event_key;
     DELETE FROM item_counts WHERE state = OLD.state AND kind = OLD.kind AND place = OLD.place AND event_key IS OLD.event_key AND count <= 0;
   END;
   -- place and kind never change in the bridge's own statements; a hand edit of them is counted too.
   CREATE TRIGGER item_counts_update AFTER UPDATE OF place, kind, state, event_key ON items
   WHEN OLD.place IS NOT NEW.place OR OLD.kind IS NOT NEW.kind OR OLD.state IS NOT NEW.state
     OR OLD.event_key IS NOT NEW.event_key
   BEGIN
     UPDATE item_counts SET count = count - 1 WHERE state = OLD.state AND kind = OLD.kind AND place = OLD.place AND event_key IS OLD.event_key;
     DELETE FROM item_counts WHERE state = OLD.state AND kind = OLD.kind AND place = OLD.place AND event_key IS OLD.event_key AND count <= 0;
     INSERT INTO item_counts (place, kind, state, event_key, count)
       SELECT NEW.place, NEW.kind, NEW.state, NEW.event_key, 0
       WHERE NOT EXISTS (SELECT 1 FROM item_counts WHERE state = NEW.state AND kind = NEW.kind AND place = NEW.place AND event_key IS NEW.event_key);
     UPDATE item_counts SET count = count + 1 WHERE state = NEW.state AND kind = NEW.kind AND place = NEW.place AND event_key IS NEW.event_key;
   END;
   INSERT INTO item_counts (place, kind, state, event_key, count)
     SELECT place, kind, state, event_key, COUNT(*) FROM items GROUP BY place, kind, state, event_key;`
  }
]

/** The schema version this bridge writes. */
export const schemaVersion = migrations.length

/** The version of the newest breaking migration: a bridge of an older schema cannot use the file. */
export const oldestReader = migrations.reduce((oldest, migration, index) => (migration.change === "breaking" ? index + 1 : oldest), 0)

/** A file of a newer schema that this bridge opened as it is, leaving its schema version alone. */
export interface NewerSchema {
  readonly version: number
  readonly migratedBy: string | undefined
}

/** One line for the log: a downgraded bridge that keeps delivering is news, but not trouble. */
export const newerSchemaNotice = (file: string, newer: NewerSchema): string =>
  `outbox ${file} written by a newer scorebridge (schema ${newer.version}${
    newer.migratedBy === undefined ? "" : `, scorebridge ${newer.migratedBy}`
  }); this version (schema ${schemaVersion}) reads it: pending items are delivered`

// Its message is already the reason in words; describeFailure passes it through.
class NewerSchemaRefused extends Error {}

/** What a file says of who may open it (migration 5 on); undefined in older files. */
export interface FileFormat {
  readonly oldestReader: number
  readonly migratedBy: string
}

export const fileFormatOf = (db: DatabaseSync): FileFormat | undefined => {
  const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'file_format'").get()
  if (table === undefined) return undefined
  const row = db.prepare("SELECT oldest_reader, migrated_by FROM file_format WHERE one = 1").get()
  if (row === undefined) return undefined
  return { oldestReader: Number(row["oldest_reader"]), migratedBy: String(row["migrated_by"]) }
}

/**
 * Whether a bridge that knows schemas up to `reader` may open a file of schema `version`: its own
 * or an older one, or a newer one whose breaking changes it knows. Also what the upgrade guard asks
 * of the version it would go back to.
 */
export const mayOpen = (version: number, format: FileFormat | undefined, reader: number): boolean =>
  version <= reader || (format !== undefined && format.oldestReader <= reader)

/** Checks, before anything is written, that this bridge may open a file of schema `version`. */
const checkReadable = (db: DatabaseSync, version: number): NewerSchema | undefined => {
  if (version <= schemaVersion) return undefined
  const format = fileFormatOf(db)
  if (format !== undefined && mayOpen(version, format, schemaVersion)) return { version, migratedBy: format.migratedBy }
  const newer = format === undefined ? "that newer scorebridge" : `scorebridge ≥ ${format.migratedBy}`
  throw new NewerSchemaRefused(
    `it was written by a newer scorebridge (schema version ${version}${
      format === undefined ? "" : `, scorebridge ${format.migratedBy}`
    }) that this version (schema ${schemaVersion}) cannot read: install ${newer} again (apt-get install scorebridge), ` +
      `or move outbox.sqlite aside to start empty — its pending items would then be lost`
  )
}

/**
 * Brings the file's schema up to this bridge's, in one transaction, or leaves a newer file that
 * this bridge may read as it is (returned, for the caller to log). Throws when it may not.
 */
export const migrate = (db: DatabaseSync): { readonly from: number; readonly newer: NewerSchema | undefined } => {
  const version = Number(db.prepare("PRAGMA user_version").get()?.["user_version"] ?? 0)
  const newer = checkReadable(db, version)
  // BEGIN IMMEDIATE takes the write lock even with nothing to migrate: a file that cannot be
  // written fails here, at start-up, rather than on the first acknowledged input.
  db.exec("BEGIN IMMEDIATE")
  try {
    if (version < schemaVersion) {
      for (let next = version; next < schemaVersion; next++) db.exec(migrations[next]!.sql)
      db.prepare(
        `INSERT INTO file_format (one, oldest_reader, migrated_by) VALUES (1, $oldestReader, $migratedBy)
         ON CONFLICT (one) DO UPDATE SET oldest_reader = excluded.oldest_reader, migrated_by = excluded.migrated_by`
      ).run({ oldestReader, migratedBy: bridgeVersion })
      db.exec(`PRAGMA user_version = ${schemaVersion}`)
    }
    db.exec("COMMIT")
  } catch (cause) {
    db.exec("ROLLBACK")
    throw cause
  }
  return { from: version, newer }
}
