import { readFileSync, renameSync, writeFileSync } from "node:fs"

/**
 * A small file in the state directory saying when the daemon last heard from the broker,
 * rewritten every few seconds while the link is up and once more at a clean stop. The next run
 * reads it to know since when the messages its resumed session delivers may have waited (see
 * held-messages.ts). Not fsynced: after a power cut it is older, or unreadable, and either only
 * widens what a held press is taken to cover.
 */
export const listeningMarkEveryMs = 5_000

export const readListeningMark = (file: string): number | null => {
  try {
    const at = Number(readFileSync(file, "utf8").trim())
    return Number.isFinite(at) && at > 0 ? at : null
  } catch {
    return null
  }
}

/** False when it could not be written (a full or read-only state directory): the next run then knows less. */
export const writeListeningMark = (file: string, at: number): boolean => {
  try {
    // Renamed into place: a reader never sees half a number.
    writeFileSync(`${file}.tmp`, `${at}\n`)
    renameSync(`${file}.tmp`, file)
    return true
  } catch {
    return false
  }
}
