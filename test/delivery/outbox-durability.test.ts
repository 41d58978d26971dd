import { describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { tempStateDirectory, runWithOutbox } from "./outbox-support.ts"
import { nodeBinary, runWriter, writerScript } from "./outbox-writer-process.ts"

const places = ["court-1", "court-2", "court-3"]

const highestId = (stateDirectory: string) =>
  runWithOutbox(stateDirectory, (outbox) =>
    Effect.map(
      Effect.forEach(places, (place) => outbox.recent(place, 1)),
      (lists) => Math.max(0, ...lists.flat().map((item) => item.id))
    ))

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

      const missing = await runWithOutbox(stateDirectory, (outbox) =>
        Effect.filter([...acked], ([id, seq]) =>
          Effect.map(outbox.get(id), (item) =>
            Option.match(item, {
              onNone: () => true,
              onSome: (stored) => JSON.stringify(stored.payload) !== JSON.stringify({ seq, filler: "x".repeat(32) })
            })
          )))
      expect(missing).toEqual([])
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
})
