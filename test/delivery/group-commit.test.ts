import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Checkpointer } from "../../src/delivery/checkpointer.ts"
import { GroupCommit } from "../../src/delivery/group-commit.ts"

/** Looks for commits to sync right away instead of at the end of the loop's turn. */
const atOnce = (run: () => void) => run()

/** A disk whose fsyncs finish when the test says: each call is one fsync in flight. */
const manualDisk = () => {
  const inFlight: Array<(error: Error | null) => void> = []
  return {
    sync: (done: (error: Error | null) => void) => {
      inFlight.push(done)
    },
    inFlight,
    /** Ends the `i`-th fsync still in flight (0 = the oldest). */
    finish: (i = 0, error: Error | null = null) => inFlight.splice(i, 1)[0]!(error)
  }
}

const durableLog = (group: GroupCommit) => {
  const done: Array<string> = []
  const wait = (seq: number) => group.whenDurable(seq, (error) => done.push(error === undefined ? `${seq}` : `${seq}: ${error.message}`))
  return { done, wait }
}

describe("group commit of the outbox's log", () => {
  it("starts an fsync at the first commit and tells its waiter once that fsync ends", () => {
    const disk = manualDisk()
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 2 })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    expect(disk.inFlight).toHaveLength(1)
    expect(done).toEqual([])
    disk.finish()
    expect(done).toEqual(["1"])
    expect(group.idle).toBe(true)
  })

  it("starts a second fsync beside the first for a commit the first does not cover", () => {
    const disk = manualDisk()
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 2 })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    wait(group.committed())
    expect(disk.inFlight).toHaveLength(2)
    // The second ends first (parallel storage): it covers both commits.
    disk.finish(1)
    expect(done).toEqual(["1", "2"])
    disk.finish(0)
    expect(done).toEqual(["1", "2"])
    expect(group.idle).toBe(true)
  })

  it("at close, starts at once the fsync a commit of this turn waits for, and none from a later turn", () => {
    const disk = manualDisk()
    const later: Array<() => void> = []
    const group = new GroupCommit({ defer: (run) => void later.push(run), sync: disk.sync, maxInFlight: 1 })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    expect(disk.inFlight).toHaveLength(0)
    group.close()
    expect(disk.inFlight).toHaveLength(1)
    disk.finish()
    expect(done).toEqual(["1"])
    // The end of the turn comes after the files closed: it must not start an fsync on them.
    for (const run of later) run()
    expect(disk.inFlight).toHaveLength(0)
  })

  it("lets commits made while the cap is reached share the next fsync", () => {
    const disk = manualDisk()
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 2 })
    const { done, wait } = durableLog(group)
    for (let i = 0; i < 5; i++) wait(group.committed())
    expect(disk.inFlight).toHaveLength(2)
    disk.finish(0)
    // Commit 1 is on disk; 3–5 go in one new fsync.
    expect(done).toEqual(["1"])
    expect(disk.inFlight).toHaveLength(2)
    disk.finish(0)
    expect(done).toEqual(["1", "2"])
    expect(disk.inFlight).toHaveLength(1)
    disk.finish(0)
    expect(done).toEqual(["1", "2", "3", "4", "5"])
    expect(disk.inFlight).toHaveLength(0)
  })

  it("never tells a commit made after an fsync started that this fsync stored it", () => {
    const disk = manualDisk()
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 1 })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    wait(group.committed())
    disk.finish()
    expect(done).toEqual(["1"])
    disk.finish()
    expect(done).toEqual(["1", "2"])
  })

  it("lets the commits of one turn of the event loop share one fsync, started at the end of the turn", async () => {
    const disk = manualDisk()
    const group = new GroupCommit({ sync: disk.sync, maxInFlight: 2 })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    // A write that follows at once (the scheduler marking the press in doubt).
    await Promise.resolve()
    wait(group.committed())
    expect(disk.inFlight).toHaveLength(0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(disk.inFlight).toHaveLength(1)
    disk.finish()
    expect(done).toEqual(["1", "2"])
  })

  it("answers at once for a commit already on disk", () => {
    const disk = manualDisk()
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 2 })
    const { done, wait } = durableLog(group)
    const seq = group.committed()
    disk.finish()
    wait(seq)
    expect(done).toEqual(["1"])
  })

  it("after a failed fsync, fails every waiter and every later wait, starts no more fsyncs, and says so once", () => {
    const disk = manualDisk()
    const failures: Array<string> = []
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 1, onFailed: (e) => failures.push(e.message) })
    const { done, wait } = durableLog(group)
    wait(group.committed())
    wait(group.committed())
    disk.finish(0, new Error("EIO: i/o error, fdatasync"))
    group.fail(new Error("EIO"))
    expect(failures).toEqual(["EIO: i/o error, fdatasync"])
    expect(done).toEqual(["1: EIO: i/o error, fdatasync", "2: EIO: i/o error, fdatasync"])
    wait(group.committed())
    expect(done.at(-1)).toBe("3: EIO: i/o error, fdatasync")
    expect(disk.inFlight).toHaveLength(0)
    expect(group.failed?.message).toBe("EIO: i/o error, fdatasync")
  })

  it("reports each fsync's duration", () => {
    const disk = manualDisk()
    let clock = 0
    const took: Array<number> = []
    const group = new GroupCommit({ defer: atOnce, sync: disk.sync, maxInFlight: 2, now: () => clock, onSynced: (ms) => took.push(ms) })
    group.committed()
    clock = 480
    disk.finish()
    expect(took).toEqual([480])
  })
})

describe("checkpoints of the outbox's log", () => {
  const setup = (options: { everyCommits?: number; whenQuietMs?: number } = {}) => {
    const log = manualDisk()
    const database = manualDisk()
    let clock = 0
    const checkpoints: Array<number> = []
    const errors: Array<string> = []
    const group = new GroupCommit({ defer: atOnce, sync: log.sync, maxInFlight: 2, onDurable: () => checkpointer.runIfDue() })
    const checkpointer: Checkpointer = new Checkpointer({
      group,
      checkpoint: () => checkpoints.push(clock),
      syncDatabase: database.sync,
      everyCommits: options.everyCommits ?? 3,
      whenQuietMs: options.whenQuietMs ?? 2_000,
      onError: (what, error) => errors.push(`${what}: ${String(error)}`),
      now: () => clock
    })
    const commit = () => {
      checkpointer.noteCommit()
      return group.committed()
    }
    return { log, database, group, checkpointer, checkpoints, errors, commit, at: (ms: number) => { clock = ms } }
  }

  it("runs only once every commit is on disk, after the given number of commits", () => {
    const t = setup({ everyCommits: 3 })
    t.commit()
    t.commit()
    t.log.finish()
    t.log.finish()
    expect(t.checkpoints).toEqual([])
    t.commit()
    // Due now, but commit 3 is not on disk yet: copying it into the database file could not be undone.
    t.checkpointer.runIfDue()
    expect(t.checkpoints).toEqual([])
    t.log.finish()
    expect(t.checkpoints).toHaveLength(1)
    expect(t.errors).toEqual([])
    t.checkpointer.stop()
  })

  it("runs when the outbox has been quiet, and not again until something is written", () => {
    const t = setup({ everyCommits: 100, whenQuietMs: 2_000 })
    t.at(1_000)
    t.commit()
    t.log.finish()
    expect(t.checkpoints).toEqual([])
    t.at(2_500)
    t.checkpointer.runIfDue()
    expect(t.checkpoints).toEqual([])
    t.at(3_000)
    t.checkpointer.runIfDue()
    expect(t.checkpoints).toEqual([3_000])
    t.database.finish()
    t.at(10_000)
    t.checkpointer.runIfDue()
    expect(t.checkpoints).toEqual([3_000])
    t.checkpointer.stop()
  })

  it("under load that never leaves the disk idle, closes the gate past four times the count and runs once the log is on disk", () => {
    const t = setup({ everyCommits: 2 })
    for (let i = 0; i < 8; i++) t.commit()
    t.checkpointer.runIfDue()
    expect(t.checkpoints).toEqual([])
    expect(t.checkpointer.commitsMayStart).toBe(false)
    while (t.log.inFlight.length > 0) t.log.finish()
    expect(t.checkpoints).toHaveLength(1)
    t.database.finish()
    expect(t.checkpointer.commitsMayStart).toBe(true)
    t.checkpointer.stop()
  })

  it("holds new commits at the gate until the database file is on disk", async () => {
    const t = setup({ everyCommits: 1 })
    t.commit()
    t.log.finish()
    expect(t.checkpoints).toHaveLength(1)
    expect(t.checkpointer.commitsMayStart).toBe(false)
    const passed: Array<string> = []
    const waiting = Effect.runPromise(t.checkpointer.gate.await.pipe(Effect.tap(() => Effect.sync(() => passed.push("gate")))))
    // A turn of Effect's scheduler (first in, first out): the commit above has run up to the gate.
    await Effect.runPromise(Effect.yieldNow)
    passed.push("database on disk")
    t.database.finish()
    await waiting
    expect(passed).toEqual(["database on disk", "gate"])
    expect(t.checkpointer.commitsMayStart).toBe(true)
    t.checkpointer.stop()
  })

  it("a database file that cannot be synced fails the outbox's writes, though the gate opens", () => {
    const t = setup({ everyCommits: 1 })
    const refused: Array<string> = []
    t.commit()
    t.log.finish()
    t.database.finish(0, new Error("EIO"))
    expect(t.errors).toEqual(["syncing the outbox's database file: Error: EIO"])
    expect(t.group.failed?.message).toBe("EIO")
    expect(t.checkpointer.commitsMayStart).toBe(true)
    t.group.whenDurable(t.group.committed(), (error) => refused.push(String(error?.message)))
    expect(refused).toEqual(["EIO"])
    t.checkpointer.stop()
  })
})
