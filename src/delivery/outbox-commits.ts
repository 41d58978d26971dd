import { Clock, Deferred, Effect, FiberSet } from "effect"
import { Checkpointer } from "./checkpointer.ts"
import { GroupCommit } from "./group-commit.ts"
import type { OutboxDisk } from "./outbox-disk.ts"
import { describeFailure, OutboxWriteError } from "./outbox-errors.ts"
import type { WriteOptions } from "./outbox-item.ts"
import { diskTally, slowCommitReporter, slowSyncReporter } from "./slow-disk.ts"

/**
 * One fsync of the log at a time: a card or eMMC serves flushes one after another, so a second in
 * flight only queues behind the first, and the commits it covers wait longer than if they had
 * joined the next one (on the bench's slow block device, append to on-disk p50 730–880 ms with
 * one, 1240–1320 ms with two).
 */
const fsyncsInFlight = 1

export interface CheckpointWhen {
  readonly everyCommits: number
  readonly whenQuietMs?: number
}

/**
 * The log's fsyncs (GroupCommit) and checkpoints (Checkpointer) over the outbox's files, their
 * warnings and totals, and which items have writes not yet on disk. Stopped when the scope closes.
 */
const makeSyncing = Effect.fnUntraced(function*(disk: OutboxDisk, checkpointWhen: CheckpointWhen) {
  const { file, db } = disk
  // The fsyncs end on libuv's callbacks, outside any fiber: their warnings go to the daemon's logger,
  // in fibers of this scope (closing the outbox interrupts a warning still being written), and their
  // times come from the clock the rest of the outbox reads.
  const logWith = yield* FiberSet.makeRuntime<never, void, never>()
  const clock = yield* Clock.Clock
  const slowSync = slowSyncReporter(file)
  const slowCommit = slowCommitReporter(file)
  const tally = diskTally()
  const warnIfDue = (report: string | undefined) => {
    if (report !== undefined) logWith(Effect.logWarning(report))
  }

  /** Items whose latest write may not be on disk yet, with that write's sequence number. */
  const unsynced = new Map<number, number>()
  const failedDisk = Deferred.makeUnsafe<Error>()
  const group = new GroupCommit({
    sync: disk.syncLog,
    maxInFlight: fsyncsInFlight,
    onSynced: (tookMs) => {
      tally.synced(tookMs)
      warnIfDue(slowSync(tookMs, clock.currentTimeMillisUnsafe()))
    },
    onDurable: (durableSeq) => {
      for (const [id, seq] of unsynced) if (seq <= durableSeq) unsynced.delete(id)
      checkpointer.runIfDue()
    },
    onFailed: (error) => Deferred.doneUnsafe(failedDisk, Effect.succeed(error))
  })
  const checkpointer: Checkpointer = new Checkpointer({
    group,
    checkpoint: () => db.exec("PRAGMA wal_checkpoint(PASSIVE)"),
    syncDatabase: disk.syncDatabase,
    ...checkpointWhen,
    onError: (what, error) => logWith(Effect.logError(`${what} (${file}) failed: ${describeFailure(error)}`))
  })
  // Registered after the disk's release, so it runs first: the timer starts no checkpoint while the
  // close waits, and the fsync of a commit made this turn starts before the close looks for fsyncs in flight.
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      checkpointer.stop()
      group.close()
    })
  )
  /** A commit has reached the kernel after `tookMs` on the event loop. */
  const committed = (tookMs: number) => {
    tally.committed(tookMs)
    warnIfDue(slowCommit(tookMs, clock.currentTimeMillisUnsafe()))
    checkpointer.noteCommit()
  }
  return { group, checkpointer, unsynced, failedDisk, tally, committed }
})

/**
 * How a write becomes durable: it commits on the event loop (once no checkpoint holds the gate),
 * and whoever must not act before it is on disk waits for the group commit's fsync that covers it.
 * Tracks, per item, the newest write not yet on disk, so `onDisk` waits for that item's own writes.
 */
export const makeCommits = Effect.fnUntraced(function*(disk: OutboxDisk, checkpointWhen: CheckpointWhen) {
  const { file } = disk
  const { group, checkpointer, unsynced, failedDisk, tally, committed } = yield* makeSyncing(disk, checkpointWhen)

  const writeError = (reason: string) => new OutboxWriteError({ path: file, reason })
  const diskFailed = (error: Error) =>
    writeError(`the disk failed to store outbox writes (${describeFailure(error)}); scorebridge ends (exit status 74) for systemd to start it again: what was acknowledged or sent is on disk, the rest is asked for again`)

  const commit = <A>(run: () => A): Effect.Effect<{ readonly value: A; readonly seq: number }, OutboxWriteError> =>
    Effect.suspend(() => {
      if (group.failed !== undefined) return Effect.fail(diskFailed(group.failed))
      // Its fsync would never start: the files close once the fsyncs already started end.
      if (group.closed) return Effect.fail(writeError("the outbox is closing"))
      if (!checkpointer.commitsMayStart) return Effect.andThen(checkpointer.gate.await, commit(run))
      const started = performance.now()
      return Effect.try({ try: run, catch: (cause) => writeError(describeFailure(cause)) }).pipe(
        Effect.map((value) => {
          committed(performance.now() - started)
          return { value, seq: group.committed() }
        })
      )
    })

  const durable = (seq: number) =>
    Effect.callback<void, OutboxWriteError>((resume) => {
      group.whenDurable(seq, (error) => resume(error === undefined ? Effect.void : Effect.fail(diskFailed(error))))
    })

  const appendListeners: Array<Effect.Effect<void>> = []
  const appended = Effect.suspend(() => Effect.forEach(appendListeners, (listener) => listener, { discard: true }))

  return {
    /**
     * Commits, notes which items it wrote, and (unless told `commit`) waits for the disk. Every
     * write counts, one that found its row already there too (a redelivered press): waiting for it
     * then waits for the fsync that covers the first one. Appends tell the listeners at the commit.
     */
    write: <A>(
      run: () => A,
      touched: (value: A) => ReadonlyArray<number>,
      options: WriteOptions & { readonly append?: boolean } = {}
    ) =>
      Effect.flatMap(commit(run), ({ value, seq }) => {
        for (const id of touched(value)) unsynced.set(id, seq)
        const waited = options.wait === "commit" ? Effect.succeed(value) : Effect.as(durable(seq), value)
        return options.append === true ? Effect.andThen(appended, waited) : waited
      }),
    /** Once everything committed so far is on disk. */
    allOnDisk: Effect.suspend(() => durable(group.latest)),
    onDisk: (id: number) =>
      Effect.suspend(() => {
        const seq = unsynced.get(id)
        return seq === undefined ? Effect.void : durable(seq)
      }),
    whenAppended: (effect: Effect.Effect<void>) => Effect.sync(() => { appendListeners.push(effect) }),
    diskFailure: Effect.map(Deferred.await(failedDisk), diskFailed),
    /** The fsyncs and slow commits so far (see OutboxDiskStats). */
    diskStats: Effect.sync(tally.stats)
  }
})

export type Commits = Effect.Success<ReturnType<typeof makeCommits>>
