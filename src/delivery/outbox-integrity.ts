import type { DatabaseSync } from "node:sqlite"
import { Clock, Effect, Ref } from "effect"
import { describeFailure } from "./outbox-errors.ts"

/**
 * Whether the outbox file is sound. SQLite's quick_check reads every page of the file, which grows
 * with the outbox (a weekend offline: 40,000 items, 130–270 ms at each open, the daemon opening it
 * twice before READY). So the open checks only what it reads whole (the schema and the small tables,
 * `boundedCheck`), and the whole file is checked after the start, off the event loop: a worker
 * thread opens it read-only beside the writer (WAL lets it read one snapshot while commits go on).
 * Until then a damaged page of `items` shows where it is read or written, as that read's or write's
 * error; once found, the file is reported corrupt on the status page and /healthz (OutboxHealth.integrity).
 */
export type OutboxIntegrity =
  | { readonly state: "checking" }
  | { readonly state: "ok"; readonly checkedAt: number; readonly tookMs: number }
  | { readonly state: "corrupt"; readonly problems: string }
  /** The check could not run (the worker failed to start, the file could not be read): nothing is known. */
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

// Run by the worker as a CommonJS script (eval): no file of its own to find, in the sources as in
// the bundle. One read transaction for both reads, so the kept counts are compared with the items
// of the same snapshot. A small page cache: its pages pass through once.
const workerScript = `
const { parentPort, workerData } = require("node:worker_threads")
const { DatabaseSync } = require("node:sqlite")
const started = performance.now()
let db
try {
  db = new DatabaseSync(workerData.file, { readOnly: true, timeout: 5000 })
  db.exec("PRAGMA cache_size = -256")
  db.exec("BEGIN")
  const problems = db.prepare("PRAGMA quick_check(20)").all().map((row) => String(row.quick_check))
  const rows = (sql) => JSON.stringify(db.prepare(sql).all().map((r) => [r.place, r.kind, r.state, r.event_key, Number(r.count)]))
  const sound = problems.length === 1 && problems[0] === "ok"
  const countsAgree = !sound || rows(workerData.counted) === rows(workerData.kept)
  db.exec("COMMIT")
  parentPort.postMessage({ problems, countsAgree, tookMs: performance.now() - started })
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  // SQLITE_CORRUPT, SQLITE_NOTADB: what the check stopped on is its finding.
  const found = [11, 26].includes(Number(error?.errcode) & 0xff)
  parentPort.postMessage(found ? { problems: [message] } : { error: message })
} finally {
  if (db !== undefined) db.close()
}
`

const byKey = "GROUP BY place, kind, state, event_key ORDER BY place, kind, state, event_key"

interface WorkerReport {
  readonly problems?: ReadonlyArray<string>
  readonly countsAgree?: boolean
  readonly tookMs?: number
  readonly error?: string
}

/** How long a close waits for a check that is still reading (it cannot be stopped mid-pragma). */
const stopWaitMs = 3_000

/**
 * The full check in a worker thread. Interrupted (the outbox closing), the worker is terminated
 * and waited for, so its connection is closed before the outbox closes the file's descriptors
 * (closing one drops every lock the process holds on the file, the worker's too).
 */
const inWorker = (file: string): Effect.Effect<WorkerReport> =>
  Effect.callback<WorkerReport>((resume) => {
    // Loaded only here: the daemon has no other use for worker_threads.
    const { Worker } = process.getBuiltinModule("node:worker_threads")
    let worker: InstanceType<typeof Worker>
    try {
      worker = new Worker(workerScript, {
        eval: true,
        workerData: {
          file,
          counted: `SELECT place, kind, state, event_key, COUNT(*) AS count FROM items ${byKey}`,
          kept: `SELECT place, kind, state, event_key, SUM(count) AS count FROM item_counts ${byKey}`
        },
        // Its heap holds a few rows; SQLite's pages are outside it.
        resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 }
      })
    } catch (cause) {
      resume(Effect.succeed({ error: describeFailure(cause) }))
      return
    }
    worker.unref()
    const exited = new Promise<void>((done) => worker.once("exit", () => done()))
    let answered = false
    const answer = (report: WorkerReport) => {
      if (answered) return
      answered = true
      resume(Effect.succeed(report))
    }
    worker.once("message", (report: WorkerReport) => answer(report))
    worker.once("error", (error) => answer({ error: describeFailure(error) }))
    worker.once("exit", (code) => answer({ error: `the check's thread ended (exit code ${code})` }))
    return Effect.promise(() => worker.terminate().then(() => exited)).pipe(Effect.timeoutOption(stopWaitMs), Effect.asVoid)
  })

/** What the report means for the file, and the line it is worth in the log. */
const verdict = (file: string, report: WorkerReport, now: number) => {
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
    const report = yield* inWorker(file)
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
