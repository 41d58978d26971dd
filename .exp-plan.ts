import * as fs from "node:fs"
import { openOutboxDatabase } from "./src/delivery/outbox-database.ts"
import { outboxStatements } from "./src/delivery/outbox-statements.ts"
const dir = fs.mkdtempSync("/tmp/ob-")
const db = openOutboxDatabase(dir)
const s = outboxStatements(db)
for (const q of ["heads","lastOf","recent","deadLetters","prune","counts"]) {
  const sqlText = (s as any)[q].sourceSQL
  console.log("==", q); for (const r of db.prepare("EXPLAIN QUERY PLAN " + sqlText).all({place:"a",kind:"click",limit:1,settledBefore:1})) console.log("  ", (r as any).detail)
}
