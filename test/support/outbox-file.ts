import { existsSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"

/**
 * Outbox items by state, read straight from a daemon's database beside the running daemon.
 * WAL lets a reader in while the daemon writes, but not while a starting daemon opens the file
 * and runs its migrations: the busy timeout waits that out instead of failing with
 * "database is locked".
 */
export const outboxStates = (stateDirectory: string, place?: string): Record<string, number> => {
  const file = join(stateDirectory, "outbox.sqlite")
  if (!existsSync(file)) return {}
  const db = new DatabaseSync(file, { readOnly: true, timeout: 5_000 })
  try {
    const rows = place === undefined
      ? db.prepare("SELECT state, count(*) AS n FROM items GROUP BY state").all()
      : db.prepare("SELECT state, count(*) AS n FROM items WHERE place = ? GROUP BY state").all(place)
    return Object.fromEntries(rows.map((r) => [String(r["state"]), Number(r["n"])]))
  } finally {
    db.close()
  }
}
