import { existsSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"

/** Outbox items by state, read straight from the daemon's database (read-only; WAL lets it run beside the daemon). */
export const outboxStates = (stateDirectory: string): Record<string, number> => {
  const file = join(stateDirectory, "outbox.sqlite")
  if (!existsSync(file)) return {}
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const rows = db.prepare("SELECT state, count(*) AS n FROM items GROUP BY state").all()
    return Object.fromEntries(rows.map((r) => [String(r["state"]), Number(r["n"])]))
  } finally {
    db.close()
  }
}
