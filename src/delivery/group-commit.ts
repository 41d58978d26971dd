/**
 * Group commit for the outbox's write-ahead log. A commit reaches the kernel at once, on the event
 * loop (a write into the page cache, well under a millisecond); making it durable is an fsync,
 * which a worn SD card can hold for half a second. That runs on libuv's thread pool, so the loop
 * goes on stamping, decoding and sending meanwhile, and whoever must not act before the commit is
 * on disk (a broker acknowledgement, a request) waits for `whenDurable`.
 *
 * An fsync covers every commit made before it started. One starts at the end of the event loop's
 * turn in which a commit was not covered by any fsync in flight, up to `maxInFlight` at once;
 * commits made while that many are in flight share the next one (the outbox allows one: see there). Starting at the end of the turn
 * lets the writes that follow a commit at once share its fsync: a press and its in-doubt mark,
 * written by the scheduler as soon as it sees the press, then wait for one fsync together.
 */
export interface GroupCommitOptions {
  /** Starts one fsync of the log; `done` once it is on disk, with the error if it is not. */
  readonly sync: (done: (error: Error | null) => void) => void
  readonly maxInFlight: number
  /** Each fsync's duration, for the slow-disk warning. */
  readonly onSynced?: (tookMs: number) => void
  /** After each fsync that succeeded, with the newest commit now on disk. */
  readonly onDurable?: (durableSeq: number) => void
  /** Once, when the disk first fails (see `failed`). */
  readonly onFailed?: (error: Error) => void
  readonly now?: () => number
  /** When to look for commits to sync: at the end of this turn of the event loop (setImmediate). */
  readonly defer?: (run: () => void) => void
}

/** After an fsync slower than this, the next one waits `joinWaitMs` for the writes that follow a commit. */
const slowSyncMs = 20
const joinWaitMs = 2

interface Waiter {
  readonly seq: number
  readonly done: (error: Error | undefined) => void
}

export class GroupCommit {
  private committedSeq = 0
  private durableSeq = 0
  /** The newest commit that an fsync already in flight (or done) covers. */
  private coveredSeq = 0
  private inFlight = 0
  private readonly waiters: Array<Waiter> = []
  private failure: Error | undefined
  private readonly now: () => number
  private readonly defer: (run: () => void) => void
  private pumpDue = false
  private lastSyncMs = 0
  private closing = false

  private readonly options: GroupCommitOptions

  constructor(options: GroupCommitOptions) {
    this.options = options
    this.now = options.now ?? (() => performance.now())
    // Effect resumes fibers with setImmediate: the scheduler's in-doubt mark comes a few turns
    // after the press. While fsyncs are slow, waiting 2 ms for it costs nothing next to the fsync
    // it saves.
    this.defer = options.defer ?? ((run) => {
      if (this.lastSyncMs > slowSyncMs) setTimeout(run, joinWaitMs)
      else setImmediate(run)
    })
  }

  /** Records a commit that has just reached the kernel; returns its sequence number. */
  committed(): number {
    this.committedSeq++
    if (!this.pumpDue) {
      this.pumpDue = true
      this.defer(() => {
        this.pumpDue = false
        // Closed meanwhile: `close` started what this would have, and the descriptors may be gone.
        if (!this.closing) this.pump()
      })
    }
    return this.committedSeq
  }

  /** The newest commit so far: waiting for it waits for everything committed before. */
  get latest(): number {
    return this.committedSeq
  }

  /** Calls `done` once commit `seq` is on disk (at once if it is), or with the error that kept it off. */
  whenDurable(seq: number, done: (error: Error | undefined) => void): void {
    if (this.failure !== undefined) return done(this.failure)
    if (seq <= this.durableSeq) return done(undefined)
    // Sequence numbers only grow, so the list stays ordered by seq.
    this.waiters.push({ seq, done })
  }

  /** Every commit is on disk and no fsync is in flight: a checkpoint may run now. */
  get idle(): boolean {
    return this.inFlight === 0 && this.durableSeq === this.committedSeq
  }

  get fsyncsInFlight(): number {
    return this.inFlight
  }

  /**
   * Set once an fsync failed. The kernel may have dropped the pages it could not write and
   * marked them clean, so a later fsync that succeeds proves nothing about them (Linux): nothing
   * committed since the last good fsync can be trusted until the process starts again and reads
   * the file back.
   */
  get failed(): Error | undefined {
    return this.failure
  }

  /**
   * The files are about to close. An fsync a commit is waiting for but that would start only at the
   * end of this turn starts now, so the close, which waits for the fsyncs in flight, waits for it
   * too; started later, it would find the descriptors closed (EBADF, taken for a failed disk) or,
   * worse, reused by another file. Commits after this are refused by the outbox.
   */
  close(): void {
    this.closing = true
    this.pump()
  }

  get closed(): boolean {
    return this.closing
  }

  private pump(): void {
    if (this.failure !== undefined || this.inFlight >= this.options.maxInFlight || this.coveredSeq >= this.committedSeq) return
    const covers = this.committedSeq
    this.coveredSeq = covers
    this.inFlight++
    const startedAt = this.now()
    this.options.sync((error) => {
      this.inFlight--
      this.lastSyncMs = this.now() - startedAt
      this.options.onSynced?.(this.lastSyncMs)
      if (error !== null) return this.fail(error)
      this.durableSeq = Math.max(this.durableSeq, covers)
      let released = 0
      while (released < this.waiters.length && this.waiters[released]!.seq <= this.durableSeq) released++
      for (const waiter of this.waiters.splice(0, released)) waiter.done(undefined)
      this.pump()
      this.options.onDurable?.(this.durableSeq)
    })
  }

  /** The disk failed (the log's fsync, or the database file's after a checkpoint): see `failed`. */
  fail(error: Error): void {
    if (this.failure === undefined) {
      this.failure = error
      this.options.onFailed?.(error)
    }
    for (const waiter of this.waiters.splice(0)) waiter.done(this.failure)
  }
}
