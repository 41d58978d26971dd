import { existsSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { Effect } from "effect"
import { fileFormatOf, mayOpen } from "../delivery/outbox-schema.ts"
import { runTool } from "./run-tool.ts"

/**
 * Before going back a version: can the kept version open the outbox the failed one leaves? A new
 * version with a breaking outbox change (docs/architecture.md, "The outbox across versions") makes
 * a file the previous one refuses; going back then would not deliver the items waiting in it, only
 * stop delivering them. Each package says which outbox schema it knows in its control file
 * (scripts/package/control.ts), which the kept copy carries over.
 */

export const outboxSchemaField = "X-Scorebridge-Outbox-Schema"

/** The outbox schema a package knows, from its control file; undefined for a package that does not say. */
export const packageOutboxSchema = (deb: string) =>
  runTool("dpkg-deb", ["--field", deb, outboxSchemaField], { timeoutMs: 60_000 }).pipe(
    Effect.map((ran) => {
      const value = Number(ran.stdout.trim())
      return ran.status === 0 && Number.isInteger(value) && value > 0 ? value : undefined
    })
  )

export type OutboxVerdict =
  | { readonly opens: true; readonly why: string }
  | { readonly opens: false; readonly why: string }

/** Reads the outbox's schema and format without changing anything (read-only, no migration). */
export const outboxOpensWith = (file: string, readerSchema: number | undefined): OutboxVerdict => {
  if (readerSchema === undefined) return { opens: true, why: "the kept package does not say which outbox schema it knows (older than this check)" }
  if (!existsSync(file)) return { opens: true, why: `no outbox at ${file}` }
  let db: DatabaseSync | undefined
  try {
    db = new DatabaseSync(file, { readOnly: true })
    const version = Number(db.prepare("PRAGMA user_version").get()?.["user_version"] ?? 0)
    const format = fileFormatOf(db)
    return mayOpen(version, format, readerSchema)
      ? { opens: true, why: `the outbox (schema ${version}) opens with schema ${readerSchema}` }
      : {
        opens: false,
        why: `the outbox ${file} is of schema ${version}, which needs a bridge of schema ${format?.oldestReader ?? version} or newer; ` +
          `the kept version knows schema ${readerSchema} and would refuse it, leaving the items waiting in it undelivered`
      }
  } catch (cause) {
    // Unreadable here is not proof the old version cannot read it: do not block the way back on it.
    return { opens: true, why: `the outbox could not be checked (${cause instanceof Error ? cause.message : String(cause)})` }
  } finally {
    db?.close()
  }
}
