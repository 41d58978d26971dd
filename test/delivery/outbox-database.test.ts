import { rmSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { openOutboxDatabase } from "../../src/delivery/outbox-database.ts"
import { tempStateDirectory } from "./outbox-support.ts"

const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the outbox file as opened", () => {
  it("keeps SQLite's page cache to 512 kB: the file outgrows the 2 MB default within days, the kernel caches it anyway", () => {
    const dir = tempStateDirectory()
    dirs.push(dir)
    const { db } = openOutboxDatabase(dir)
    try {
      expect(db.prepare("PRAGMA cache_size").get()?.["cache_size"]).toBe(-512)
      expect(db.prepare("PRAGMA journal_mode").get()?.["journal_mode"]).toBe("wal")
    } finally {
      db.close()
    }
  })
})
