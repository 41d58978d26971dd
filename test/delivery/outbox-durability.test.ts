import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { mountSlowDisk, slowDiskSkipped } from "../../scripts/support/slow-disk.ts"
import { tempStateDirectory, runWithOutbox } from "./outbox-support.ts"
import { type Ack, nodeBinary, runWriter, writerScript } from "./outbox-writer-process.ts"
import { numberedItem } from "../support/outbox-payloads.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const places = ["court-1", "court-2", "court-3"]

const highestId = (stateDirectory: string) =>
  runWithOutbox(stateDirectory, (outbox) =>
    Effect.map(
      Effect.forEach(places, (place) => outbox.recent(place, 1)),
      (lists) => Math.max(0, ...lists.flat().map((item) => item.id))
    ))

/** The acknowledged items that are not in the outbox, or not as written. */
const missingOf = (stateDirectory: string, acked: ReadonlyMap<number, number>) =>
  runWithOutbox(stateDirectory, (outbox) =>
    Effect.filter([...acked], ([id, seq]) =>
      Effect.map(outbox.get(id), (item) =>
        Option.match(item, {
          onNone: () => true,
          onSome: (stored) => JSON.stringify(stored.payload) !== JSON.stringify(numberedItem(seq, "x".repeat(32)).payload)
        })
      )))

describe("Outbox durability", () => {
  it("keeps every acknowledged item when the writer is killed with SIGKILL, round after round", async () => {
    const stateDirectory = tempStateDirectory()
    const acked = new Map<number, number>() // id → seq
    let nextSeq = 0
    for (let round = 0; round < 5; round++) {
      const idsBefore = await highestId(stateDirectory)
      const killAfter = 200 + Math.floor(Math.random() * 400)
      const run = await runWriter(nodeBinary, [writerScript, stateDirectory, String(nextSeq)], { killAfter })
      expect(run.signal).toBe("SIGKILL")
      expect(run.acks.length).toBeGreaterThanOrEqual(killAfter)

      // The writer restarts from the first unacknowledged seq: an item written but not acknowledged
      // before the kill comes back through its dedupe key with its old id; every other id is new.
      const ids = run.acks.map((ack) => ack.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      for (const ack of run.acks) {
        if (ack.id <= idsBefore) expect(ack.seq).toBe(nextSeq)
        acked.set(ack.id, ack.seq)
      }
      nextSeq = run.acks.at(-1)!.seq + 1

      expect(await missingOf(stateDirectory, acked)).toEqual([])
    }
    expect(acked.size).toBeGreaterThanOrEqual(5 * 200)

    // After the last kill the outbox still takes new items, numbered after everything before.
    const before = await highestId(stateDirectory)
    const finish = await runWriter(nodeBinary, [writerScript, stateDirectory, String(nextSeq), "50"])
    expect(finish.code).toBe(0)
    expect(finish.acks).toHaveLength(50)
    expect(finish.acks.filter((ack) => ack.id <= before).map((ack) => ack.seq)).toEqual(
      finish.acks[0]!.id <= before ? [nextSeq] : []
    )
  })

  // The outbox syncs by itself, off the event loop (outbox-files.ts): a power cut, not only a kill,
  // must keep every acknowledged item. The slow disk's lazy mode keeps writes that were never
  // fsynced in memory and drops them at the cut; the writer's appends overlap (group commit), and it
  // checkpoints every 40 commits, so the log starts over many times a round: each time only after
  // the database file's fsync, which is part of what is proven.
  it.skipIf(slowDiskSkipped())(
    "keeps every acknowledged item through kill -9 and a power cut, with appends sharing fsyncs and checkpoints between",
    async () => {
      const directory = tempDir("power-cut")
      const disk = await mountSlowDisk({ directory, lazy: true, device: "fuse", fsyncDelayMs: 2 })
      try {
        const stateDirectory = join(disk.path, "state")
        mkdirSync(stateDirectory)
        const acked = new Map<number, number>()
        let nextSeq = 0
        let cutAway = 0
        for (let round = 0; round < 4; round++) {
          const killAfter = 300 + Math.floor(Math.random() * 600)
          const run = await runWriter(nodeBinary, [writerScript, stateDirectory, String(nextSeq), "100000", "32", "8", "40"], { killAfter, timeoutMs: 60_000 })
          expect(run.signal).toBe("SIGKILL")
          cutAway += (await cutThePower(disk, stateDirectory, run.acks)).lost
          for (const ack of run.acks) acked.set(ack.id, ack.seq)
          nextSeq = Math.max(...run.acks.map((ack) => ack.seq)) + 1
          expect(await missingOf(stateDirectory, acked)).toEqual([])
        }
        expect(acked.size).toBeGreaterThanOrEqual(4 * 300)
        // The cut must have taken something away, or it proved nothing about what the outbox syncs.
        expect(cutAway).toBeGreaterThan(0)
      } finally {
        await disk.unmount()
        rmSync(directory, { recursive: true, force: true })
      }
    },
    120_000
  )
})

/**
 * Cuts the power, then says how many items the writer had written beyond its acknowledgements
 * (seen through the page cache before the cut) that the cut took away.
 */
const cutThePower = async (
  disk: Awaited<ReturnType<typeof mountSlowDisk>>,
  stateDirectory: string,
  acks: ReadonlyArray<Ack>
): Promise<{ readonly lost: number }> => {
  const acknowledged = Math.max(...acks.map((ack) => ack.id))
  // Read-only and raw: opening the outbox would sync (and so save) what the cut is to take away.
  const db = new DatabaseSync(join(stateDirectory, "outbox.sqlite"), { readOnly: true })
  const written = Number(db.prepare("SELECT MAX(id) AS id FROM items").get()?.["id"] ?? 0)
  db.close()
  await disk.powerCut()
  const kept = await highestId(stateDirectory)
  expect(kept).toBeGreaterThanOrEqual(acknowledged)
  return { lost: Math.max(0, written - kept) }
}
