import { appendFile, readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { runChild } from "../../process/child-process.ts"
import type { SetupEnvironment } from "../setup-environment.ts"

/** One change made through the setup page. Keys and places only: never a value, so never a secret. */
export interface JournalEntry {
  /** ISO time (UTC). */
  readonly at: string
  /** The browser session's label. */
  readonly session: string
  /** In words: "place court-1 edited", "token replaced". */
  readonly change: string
  readonly places: ReadonlyArray<string>
  /** `places[court-1].scoreboard.serial.path` */
  readonly keys: ReadonlyArray<string>
}

export const journalPath = (environment: SetupEnvironment): string => join(environment.configDirectory, "config-changes.log")

/**
 * `SCOREBRIDGE_SETUP_SYSLOG=off` keeps the changes out of the system log: the tests set it so
 * their saves stay in their temp directory's config-changes.log instead of filling the test
 * machine's journal. The product leaves it unset: every change goes to syslog too.
 */
const syslogOff = (): boolean => process.env["SCOREBRIDGE_SETUP_SYSLOG"] === "off"

/** The same line to the system log (journald), under a tag of its own; a machine without `logger` just has the file. */
const toSyslog = (line: string): Promise<void> =>
  syslogOff()
    ? Promise.resolve()
    : Effect.runPromise(runChild("logger", ["-t", "scorebridge-setup", "--", line], { timeoutMs: 2_000 }).pipe(Effect.ignore))

/** Appends the change to `<configDir>/config-changes.log` (one JSON line) and syslog. */
export const recordChange = async (environment: SetupEnvironment, entry: Omit<JournalEntry, "at">, now = new Date()): Promise<JournalEntry> => {
  const full: JournalEntry = { at: now.toISOString(), ...entry }
  const line = JSON.stringify(full)
  await appendFile(journalPath(environment), `${line}\n`, { mode: 0o640 })
  await toSyslog(line)
  return full
}

const parsed = (line: string): JournalEntry | undefined => {
  try {
    const entry = JSON.parse(line) as Partial<JournalEntry> | null
    return typeof entry?.at === "string" && typeof entry.change === "string" ? entry as JournalEntry : undefined
  } catch {
    // A line cut by a power failure: the others still read.
    return undefined
  }
}

/** The last `count` changes, oldest first; none before the first save. */
export const recentChanges = async (environment: SetupEnvironment, count = 50): Promise<ReadonlyArray<JournalEntry>> => {
  const text = await readFile(journalPath(environment), "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""
    throw error
  })
  return text.split("\n").filter((line) => line.trim() !== "").map(parsed).filter((entry) => entry !== undefined).slice(-count)
}
