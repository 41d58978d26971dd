import { Latch } from "effect"
import type { GroupCommit } from "./group-commit.ts"

/**
 * Moves the write-ahead log into the database file, in place of SQLite's automatic checkpoints
 * (which would fsync on the event loop). It runs only when every commit is on disk, so it copies
 * nothing that a power cut could take back; then the database file is fsynced off the loop, and
 * until that is done no commit may start: the next commit could start the log over, and the
 * log's frames are the only durable copy of what the database file has only in the page cache.
 *
 * Writes waiting at that gate wait one fsync of the database file. It runs after `everyCommits`,
 * at a moment when nothing waits for the disk, or (tests) when the outbox has been quiet for
 * `whenQuietMs`. Not on quiet in the daemon: a press after a quiet spell would find the gate closed
 * and the card busy with the database file (on the bench's slow disk, idle clicks 765–1268 ms
 * instead of 510). Past four times the count (a slow disk never idle under load), the gate closes
 * first and the checkpoint runs once the commits in flight are on disk: a log that never stops
 * growing would fill the disk.
 */
export interface CheckpointerOptions {
  readonly group: GroupCommit
  /** `PRAGMA wal_checkpoint(PASSIVE)`: page-cache writes, on the loop. */
  readonly checkpoint: () => void
  readonly syncDatabase: (done: (error: Error | null) => void) => void
  readonly everyCommits: number
  readonly whenQuietMs?: number
  readonly onError: (what: string, error: unknown) => void
  readonly now?: () => number
}

export class Checkpointer {
  /** Open while commits may start. */
  readonly gate = Latch.makeUnsafe(true)
  private open = true
  private syncingDatabase = false
  private commitsSince = 0
  private lastCommitAt = 0
  private readonly now: () => number
  private readonly timer: ReturnType<typeof setInterval>

  private readonly options: CheckpointerOptions

  constructor(options: CheckpointerOptions) {
    this.options = options
    this.now = options.now ?? (() => performance.now())
    this.timer = setInterval(() => this.runIfDue(), Math.max(250, (options.whenQuietMs ?? 1_000) / 2))
    this.timer.unref()
  }

  /** False while a checkpoint holds the gate (the database file being synced, or a forced one waiting). */
  get commitsMayStart(): boolean {
    return this.open
  }

  get busy(): boolean {
    return this.syncingDatabase
  }

  noteCommit(): void {
    this.commitsSince++
    this.lastCommitAt = this.now()
  }

  /** Runs a checkpoint if one is due and can run now; call when the log becomes idle. */
  runIfDue(): void {
    const quiet = this.options.whenQuietMs !== undefined && this.now() - this.lastCommitAt >= this.options.whenQuietMs
    const due = this.commitsSince >= this.options.everyCommits || (this.commitsSince > 0 && quiet)
    if (!due || this.syncingDatabase || this.options.group.failed !== undefined) return
    if (!this.options.group.idle) {
      if (this.commitsSince >= 4 * this.options.everyCommits) this.setOpen(false)
      return
    }
    try {
      this.options.checkpoint()
    } catch (error) {
      // Nothing was reset: the log still holds everything, and the next one tries again.
      this.options.onError("checkpointing the outbox", error)
      this.setOpen(true)
      return
    }
    this.commitsSince = 0
    this.setOpen(false)
    this.syncingDatabase = true
    this.options.syncDatabase((error) => {
      this.syncingDatabase = false
      if (error !== null) {
        this.options.group.fail(error)
        this.options.onError("syncing the outbox's database file", error)
      }
      // Writes after a failure are refused by the group commit, so opening loses nothing.
      this.setOpen(true)
    })
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private setOpen(open: boolean): void {
    this.open = open
    if (open) this.gate.openUnsafe()
    else this.gate.closeUnsafe()
  }
}
