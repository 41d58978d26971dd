import type { DatabaseSync } from "node:sqlite"
import { Clock, Effect, Ref } from "effect"
import { describeEnd, lastLine } from "../process/child-errors.ts"
import { runChild } from "../process/child-process.ts"

/**
 * Whether the outbox file is sound. SQLite's quick_check reads every page of the file, which grows
 * with the outbox (a weekend offline: 40,000 items, 130–270 ms at each open, the daemon opening it
 * twice before READY). So the open checks only what it reads whole (the schema and the small tables,
 * `boundedCheck`), and the whole file is checked after the start, off the event loop: a child
 * process opens it read-only beside the writer (WAL lets it read one snapshot while commits go on).
 * Until then a damaged page of `items` shows where it is read or written, as that read's or write's
 * error; once found, the file is reported corrupt on the status page and /healthz (OutboxHealth.integrity).
 */
export type OutboxIntegrity =
  | { readonly state: "checking" }
  | { readonly state: "ok"; readonly checkedAt: number; readonly tookMs: number }
  | { readonly state: "corrupt"; readonly problems: string }
  /** The check could not run (its process failed to start, the file could not be read): nothing is known. */
  | { readonly state: "unchecked"; readonly reason: string }

/** The tables read whole at every open, all small whatever the backlog: checked before anything is written. */
const openedWhole = ["sqlite_schema", "sqlite_sequence", "file_format", "press_identities", "item_counts"]

/** quick_check's words, as one line: its rows without the "*** in database main ***" header. */
const problemsOf = (rows: ReadonlyArray<string>): string =>
  rows.join("; ").replace(/\*\*\* in database main \*\*\*/g, "").replace(/\s+/g, " ").replace(/^[;\s]+/, "").trim()

/**
 * The open's check: quick_check of each table it reads whole (partial: no walk of every page), the
 * header and schema having been read to get this far. Returns the problems, or undefined when sound.
 */
export const boundedCheck = (db: DatabaseSync): string | undefined => {
  const present = new Set(
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((row) => String(row["name"]))
  )
  for (const table of openedWhole) {
    if (table !== "sqlite_schema" && !present.has(table)) continue
    const rows = db.prepare(`PRAGMA quick_check(${table})`).all().map((row) => String(row["quick_check"]))
    if (rows.length !== 1 || rows[0] !== "ok") return problemsOf(rows)
  }
  return undefined
}

// Run by a child node as a script (-e): no file of its own to find, in the sources as in the bundle.
// One read transaction for both reads, so the kept counts are compared with the items of the same
// snapshot. A small page cache: its pages pass through once. Its answer: one line of JSON.
const checkScript = `
const { DatabaseSync } = require("node:sqlite")
const [file, counted, kept] = process.argv.slice(1)
const started = performance.now()
let db
let report
try {
  db = new DatabaseSync(file, { readOnly: true, timeout: 5000 })
  db.exec("PRAGMA cache_size = -256")
  db.exec("BEGIN")
  const problems = db.prepare("PRAGMA quick_check(20)").all().map((row) => String(row.quick_check))
  const rows = (sql) => JSON.stringify(db.prepare(sql).all().map((r) => [r.place, r.kind, r.state, r.event_key, Number(r.count)]))
  const sound = problems.length === 1 && problems[0] === "ok"
  const countsAgree = !sound || rows(counted) === rows(kept)
  db.exec("COMMIT")
  report = { problems, countsAgree, tookMs: performance.now() - started }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  // SQLITE_CORRUPT, SQLITE_NOTADB: what the check stopped on is its finding.
  const found = [11, 26].includes(Number(error?.errcode) & 0xff)
  report = found ? { problems: [message] } : { error: message }
} finally {
  if (db !== undefined) db.close()
}
process.stdout.write(JSON.stringify(report) + "\\n")
`

const byKey = "GROUP BY place, kind, state, event_key ORDER BY place, kind, state, event_key"

interface CheckReport {
  readonly problems?: ReadonlyArray<string>
  readonly countsAgree?: boolean
  readonly tookMs?: number
  readonly error?: string
}

const reportOf = (stdout: string): CheckReport => {
  try {
    const report: unknown = JSON.parse(stdout)
    if (typeof report === "object" && report !== null) return report
  } catch {
    // Said below.
  }
  return { error: `the check answered ${JSON.stringify(stdout.slice(0, 200))}` }
}

/** A check that has not answered by then is stuck (a lock held outside, a hung disk): nothing is known. */
const checkTimeoutMs = 5 * 60_000

/**
 * The full check in a child process of the same node: the file's pages pass through its memory,
 * not the daemon's (a worker thread left the daemon 2.5–6 MB more resident), and its locks on the
 * file are its own (closing a descriptor of the file drops every lock of the process that closes
 * it, so a thread's read would lose its locks when the outbox closes its files). Interrupted (the
 * outbox closing), the child is stopped (src/process: SIGTERM, then SIGKILL) before the close goes on.
 */
const inChild = (file: string): Effect.Effect<CheckReport> => {
  const counted = `SELECT place, kind, state, event_key, COUNT(*) AS count FROM items ${byKey}`
  const kept = `SELECT place, kind, state, event_key, SUM(count) AS count FROM item_counts ${byKey}`
  // Its JavaScript is a few lines: without the JIT, it takes less memory.
  return runChild(process.execPath, ["--jitless", "-e", checkScript, file, counted, kept], { timeoutMs: checkTimeoutMs, outputCap: 1024 * 1024 }).pipe(
    Effect.map((ran): CheckReport => {
      if (ran.exitCode === 0) return reportOf(ran.stdout)
      const said = lastLine(ran.stderr)
      return { error: said === "" ? `the check ${describeEnd(ran)}` : said }
    }),
    Effect.catchTags({
      ChildStartError: (error) => Effect.succeed<CheckReport>({ error: error.message }),
      ChildTimedOut: (error) => Effect.succeed<CheckReport>({ error: error.message })
    })
  )
}

/** What the report means for the file, and the line it is worth in the log. */
const verdict = (file: string, report: CheckReport, now: number) => {
  if (report.error !== undefined) {
    const integrity: OutboxIntegrity = { state: "unchecked", reason: report.error }
    return { integrity, log: Effect.logWarning(`outbox ${file}: the check of the whole file could not run: ${report.error}`) }
  }
  const rows = report.problems ?? []
  const tookMs = Math.round(report.tookMs ?? 0)
  if (rows.length === 1 && rows[0] === "ok") {
    const integrity: OutboxIntegrity = { state: "ok", checkedAt: now, tookMs }
    return { integrity, log: Effect.logInfo(`outbox ${file}: the whole file checked, no problem found (${tookMs} ms, off the event loop)`) }
  }
  const problems = problemsOf(rows)
  const integrity: OutboxIntegrity = { state: "corrupt", problems }
  return {
    integrity,
    log: Effect.logError(
      `outbox ${file} is corrupt (${problems}): the items that can still be read are delivered, a damaged one fails where it is read; ` +
        `stop scorebridge and move the file aside to start with an empty outbox (its pending items would then be lost)`
    )
  }
}

export interface IntegrityOptions {
  /** How long after the open the whole file is checked: after the start's own work. */
  readonly afterMs: number
}

/** Not at once: the start (connecting, the first deliveries of a backlog) has the CPU first. */
export const defaultIntegrity: IntegrityOptions = { afterMs: 5_000 }

/**
 * The file's integrity as known, checked once in the background `afterMs` after the open (in the
 * outbox's scope: closing it stops a check not yet done). Counts that disagree with the items (a
 * bug, or a hand edit of the file) are logged and rebuilt by `rebuildCounts`.
 */
export const watchIntegrity = Effect.fnUntraced(function*(
  file: string,
  options: IntegrityOptions,
  rebuildCounts: Effect.Effect<void, unknown>
) {
  const state = yield* Ref.make<OutboxIntegrity>({ state: "checking" })
  const check = Effect.gen(function*() {
    yield* Effect.sleep(options.afterMs)
    const report = yield* inChild(file)
    const { integrity, log } = verdict(file, report, yield* Clock.currentTimeMillis)
    yield* Ref.set(state, integrity)
    yield* log
    if (integrity.state === "ok" && report.countsAgree === false) {
      yield* Effect.logError(`outbox ${file}: the kept counts disagreed with the items; counted again from the items`)
      yield* rebuildCounts.pipe(Effect.catchCause((cause) => Effect.logError(`outbox ${file}: the counts could not be rebuilt`, cause)))
    }
  })
  yield* Effect.forkScoped(check)
  return Ref.get(state)
})
