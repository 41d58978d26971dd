import * as path from "node:path"
import type { DatabaseSync } from "node:sqlite"
import { Effect, Latch } from "effect"
import { describeFailure, OutboxOpenError } from "./outbox-errors.ts"
import { openOutboxDatabase, outboxFileName } from "./outbox-database.ts"
import { type OutboxFiles, takeOverSyncing } from "./outbox-files.ts"
import { type NewerSchema, newerSchemaNotice } from "./outbox-schema.ts"

/** How long a stop waits for fsyncs in flight before closing the files under them. */
const closeWaitMs = 3_000

type Sync = OutboxFiles["syncLog"]

/**
 * The outbox file from open to close: the database, and the fsyncs the daemon runs on it itself
 * (see outbox-files.ts). Those run on libuv's thread pool; one still running at close (of the log,
 * or of the database file after a checkpoint) would find its descriptor closed, so the close waits
 * for them to end.
 */
export interface OutboxDisk {
  readonly file: string
  readonly db: DatabaseSync
  readonly syncLog: Sync
  readonly syncDatabase: Sync
}

/** Counts the fsyncs started through `track` and not ended yet; `ended` completes at none. */
export class SyncsInFlight {
  private count = 0
  private readonly none = Latch.makeUnsafe(true)

  track(sync: Sync): Sync {
    return (done) => {
      this.started()
      try {
        sync((error) => {
          // After `done`: an fsync it starts (the next commits', a checkpoint's) keeps the count up.
          try {
            done(error)
          } finally {
            this.finished()
          }
        })
      } catch (cause) {
        this.finished()
        throw cause
      }
    }
  }

  // The count decides, not the wake-up: as with any condition variable, it is looked at again on waking.
  readonly ended: Effect.Effect<void> = Effect.suspend(() =>
    this.count === 0 ? Effect.void : Effect.andThen(this.none.await, this.ended)
  )

  private started(): void {
    this.count++
    this.none.closeUnsafe()
  }

  private finished(): void {
    this.count--
    if (this.count === 0) this.none.openUnsafe()
  }
}

const open = (stateDirectory: string, file: string, syncs: SyncsInFlight) => {
  const { db, newer } = openOutboxDatabase(stateDirectory)
  try {
    const files = takeOverSyncing(db, file)
    const disk: OutboxDisk = { file, db, syncLog: syncs.track(files.syncLog), syncDatabase: syncs.track(files.syncDatabase) }
    return { disk, files, newer }
  } catch (cause) {
    db.close()
    throw cause
  }
}

const close = (db: DatabaseSync, files: OutboxFiles, syncs: SyncsInFlight) =>
  Effect.andThen(
    // Past the wait, a disk that holds an fsync that long gets its files closed anyway: the process is stopping.
    Effect.timeoutOption(syncs.ended, closeWaitMs),
    Effect.sync(() => {
      files.restoreSqliteSyncing()
      db.close()
      files.close()
    })
  )

// The daemon opens the file more than once (awaitOutbox's probe, then for good; again at a reload):
// that a newer bridge wrote it is news once per process.
const toldNewer = new Set<string>()

const tellNewer = (file: string, newer: NewerSchema | undefined) => {
  if (newer === undefined || toldNewer.has(`${file} ${newer.version}`)) return Effect.void
  toldNewer.add(`${file} ${newer.version}`)
  return Effect.logInfo(newerSchemaNotice(file, newer))
}

/** Opens the outbox file for the scope; it closes with it, once no fsync of it is in flight. */
export const acquireOutboxDisk = (stateDirectory: string) => {
  const file = path.join(stateDirectory, outboxFileName)
  const syncs = new SyncsInFlight()
  return Effect.acquireRelease(
    Effect.try({
      try: () => open(stateDirectory, file, syncs),
      catch: (cause) => new OutboxOpenError({ path: file, reason: describeFailure(cause) })
    }),
    ({ disk, files }) => close(disk.db, files, syncs)
  ).pipe(
    Effect.tap(({ newer }) => tellNewer(file, newer)),
    Effect.map(({ disk }) => disk)
  )
}
