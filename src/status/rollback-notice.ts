import { readFile, stat } from "node:fs/promises"
import { Effect, Schema } from "effect"
import { venueTimeWords } from "../timeline/time-ticks.ts"
import { RollbackRecord } from "../upgrade/rollback-record.ts"

/** An automatic rollback as the status page, /status.json and /metrics show it. */
export interface RollbackNotice {
  /** When the guard gave up on the new version, ms since epoch. */
  readonly at: number
  /** The upgrade that was rolled back: from the kept version to the failed one. */
  readonly from: string
  readonly to: string
  readonly reason: string
  readonly reasonKind: string
  readonly reinstalled: boolean
  readonly held: boolean
  readonly error: string | null
  /** In words, with what to do: the page's banner and the start-up log line. */
  readonly text: string
}

// The venue's clock with its date: the text is made once per record and shown for days.
const clock = (ms: number) => venueTimeWords(ms, "always")

export const rollbackText = (r: Omit<RollbackNotice, "text">): string => {
  const unhold = "`sudo apt-mark unhold scorebridge` once a fixed version is out."
  if (r.reinstalled) {
    return `Rolled back from ${r.to} to ${r.from} at ${clock(r.at)}: ${r.reason}. ` +
      (r.held ? `The package is held: ${unhold}` : `The package could not be held (${r.error ?? "unknown"}): the next upgrade may bring ${r.to} back.`)
  }
  return `${r.to} failed its watch at ${clock(r.at)} (${r.reason}) and going back to ${r.from} failed: ${r.error ?? "unknown"}. ` +
    `Look at journalctl -u scorebridge-upgrade-guard; install a working version by hand (sudo apt-get install scorebridge=${r.from}).`
}

const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(RollbackRecord))

const noticeOf = (record: RollbackRecord): RollbackNotice => {
  const at = Date.parse(record.at)
  const notice = {
    at: Number.isNaN(at) ? 0 : at,
    from: record.from,
    to: record.to,
    reason: record.reason,
    reasonKind: record.reasonKind,
    reinstalled: record.reinstalled,
    held: record.held,
    error: record.error ?? null
  }
  return { ...notice, text: rollbackText(notice) }
}

/**
 * The upgrade guard's record (`<package dir>/rollback.json`, src/upgrade/rollback-record.ts) as it
 * is now. Asked at every status snapshot, so it costs a stat: the file is read again only when its
 * mtime or size changed. No file: null. A file that does not decode is named once in the log and
 * shown as nothing, not as a rollback.
 */
export const makeRollbackNotice = (file: string) => {
  let seen: { readonly key: string; readonly notice: RollbackNotice | null } | undefined
  return Effect.gen(function*() {
    const info = yield* Effect.tryPromise(() => stat(file)).pipe(Effect.orElseSucceed(() => null))
    if (info === null) {
      seen = undefined
      return null
    }
    const key = `${info.mtimeMs}:${info.size}`
    if (seen?.key === key) return seen.notice
    const notice = yield* Effect.tryPromise(() => readFile(file, "utf8")).pipe(
      Effect.flatMap(decode),
      Effect.map(noticeOf),
      Effect.catch((e) => Effect.logWarning(`${file} is not a rollback record the bridge can read (${e.message}): not shown`).pipe(Effect.as(null)))
    )
    seen = { key, notice }
    return notice
  })
}
