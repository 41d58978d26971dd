import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { migrations, schemaVersion } from "../../src/delivery/outbox-schema.ts"

/**
 * An outbox file as a future bridge would leave it: the tests of a downgrade edit a file this
 * bridge made the way a future migration would, then give it to this bridge.
 */

export const outboxFile = (stateDirectory: string) => path.join(stateDirectory, "outbox.sqlite")

export const withDatabase = <A>(stateDirectory: string, body: (db: DatabaseSync) => A): A => {
  const db = new DatabaseSync(outboxFile(stateDirectory))
  try {
    return body(db)
  } finally {
    db.close()
  }
}

/**
 * A file as a bridge of schema `version` left it (this bridge's first `version` migrations, run by
 * hand, and from schema 5 on its file format row), with the rows `fill` puts in.
 */
export const olderFile = (stateDirectory: string, version: number, fill: (db: DatabaseSync) => void) =>
  withDatabase(stateDirectory, (db) => {
    db.exec("PRAGMA journal_mode = WAL")
    for (const migration of migrations.slice(0, version)) db.exec(migration.sql)
    if (version >= 5) db.exec("INSERT INTO file_format (one, oldest_reader, migrated_by) VALUES (1, 5, '0.1.0')")
    db.exec(`PRAGMA user_version = ${version}`)
    fill(db)
  })

export const userVersion = (db: DatabaseSync) => Number(db.prepare("PRAGMA user_version").get()?.["user_version"])

export const newerVersion = schemaVersion + 1
export const newerBridge = "9.1.0"

/**
 * What a future additive migration could do: a nullable column on items, a table of its own, the
 * oldest reader left as it was. Then, as the newer bridge would, it stores two score entries of
 * court-1 (made by `entry`; the second with a field this bridge does not know) and a press at
 * `pressedAt`, each with the new column filled, and a row of the new table. Returns their ids.
 */
export const upgradeAdditively = (
  stateDirectory: string,
  { pressedAt, entry }: { readonly pressedAt: number; readonly entry: (i: number, at: number) => object }
): ReadonlyArray<number> =>
  withDatabase(stateDirectory, (db) => {
    db.exec(`BEGIN;
      ALTER TABLE items ADD COLUMN replay_camera TEXT;
      CREATE TABLE venue_notes (item_id INTEGER PRIMARY KEY, note TEXT NOT NULL) STRICT;
      UPDATE file_format SET migrated_by = '${newerBridge}';
      PRAGMA user_version = ${newerVersion};
      COMMIT;`)
    const insert = db.prepare(
      `INSERT INTO items (place, kind, payload, event_key, dedupe_key, created_at, not_before, replay_camera)
       VALUES ('court-1', $kind, $payload, NULL, $dedupeKey, $createdAt, $createdAt, 'camera-2')`
    )
    const ids = [
      insert.run({ kind: "score", payload: JSON.stringify(entry(1, pressedAt)), dedupeKey: "newer-1", createdAt: pressedAt + 1 }),
      insert.run({
        kind: "score",
        payload: JSON.stringify({ ...entry(2, pressedAt), shotClock: 14 }),
        dedupeKey: "newer-2",
        createdAt: pressedAt + 2
      }),
      insert.run({
        kind: "click",
        payload: JSON.stringify({ timeStamp: pressedAt, metadata: { clickId: "newer-click", team: "home", source: "remote" } }),
        dedupeKey: "newer-click",
        createdAt: pressedAt
      })
    ].map((run) => Number(run.lastInsertRowid))
    db.prepare("INSERT INTO venue_notes (item_id, note) VALUES (?, 'kept by the newer bridge')").run(ids[2]!)
    return ids
  })

/** What a future breaking migration could do: a column renamed, so this bridge's SQL no longer fits. */
export const upgradeBreakingly = (stateDirectory: string) =>
  withDatabase(stateDirectory, (db) =>
    db.exec(`BEGIN;
      ALTER TABLE items RENAME COLUMN payload TO body;
      UPDATE file_format SET oldest_reader = ${schemaVersion + 2}, migrated_by = '10.0.0';
      PRAGMA user_version = ${schemaVersion + 2};
      COMMIT;`))
