import { readFileSync } from "node:fs"
import { rename, writeFile } from "node:fs/promises"

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

/**
 * Writes the mark off the event loop (libuv's thread pool), one write at a time, each resolving
 * false when it could not be written (a full or read-only state directory: the next run then
 * knows less). On a disk busy with fsyncs a rename waits for the journal: written on the loop, it
 * took 6 ms on average in the bench's slow-disk phase, and the loop is where frames and presses
 * are stamped.
 */
export const listeningMarkWriter = (file: string): ((at: number) => Promise<boolean>) => {
  let last = Promise.resolve(true)
  return (at) => (last = last.then(() => writeMark(file, at)))
}

const writeMark = async (file: string, at: number): Promise<boolean> => {
  try {
    // Renamed into place: a reader never sees half a number.
    await writeFile(`${file}.tmp`, `${at}\n`)
    await rename(`${file}.tmp`, file)
    return true
  } catch {
    return false
  }
}
