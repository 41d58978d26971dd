import { DatabaseSync } from "node:sqlite"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { outboxStatements } from "../../src/delivery/outbox-statements.ts"
import { writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import type { WholeOutbox } from "../support/whole-outbox.ts"
import { clickPayload, scorePayload } from "../support/outbox-payloads.ts"
import { olderFile, outboxFile, userVersion, withDatabase } from "./newer-outbox.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"

/**
 * The counts the status page, /metrics and systemd's status line read are kept by triggers in the
 * file as items change (schema 6), not counted from the items at each read: they must say what a
 * count of the items says, whoever wrote the file (this bridge, or the one before it after a
 * downgrade) and whatever happened to the items (appended, settled, merged, re-keyed, pruned).
 */

/** What the old `counts` said: a scan of the items. */
const scanned = (stateDirectory: string) =>
  withDatabase(stateDirectory, (db) => ({
    lanes: db.prepare(
      "SELECT place, kind, state, COUNT(*) AS count FROM items GROUP BY place, kind, state ORDER BY place, kind, state"
    ).all().map((row) => ({ ...row })),
    pendingScores: db.prepare(
      `SELECT place, event_key AS eventKey, COUNT(*) AS count FROM items WHERE state = 'pending' AND kind = 'score'
       GROUP BY place, event_key ORDER BY place, event_key`
    ).all().map((row) => ({ ...row }))
  }))

const kept = (outbox: WholeOutbox) => Effect.all({ lanes: outbox.counts, pendingScores: outbox.pendingScoresByEvent })

const readKept = (stateDirectory: string) => runWithOutbox(stateDirectory, kept)

const score = (place: string, n: number, eventKey: string | null) =>
  ({ place, kind: "score" as const, payload: scorePayload(n), eventKey, createdAt: n })

describe("the outbox's kept counts", () => {
  it("say what a count of the items says after appends, settlements, merges, new event keys and prunes", async () => {
    const stateDirectory = tempStateDirectory()
    const phases: Array<{ readonly phase: string; readonly kept: unknown; readonly scanned: unknown }> = []
    const compare = (phase: string, outbox: WholeOutbox) =>
      Effect.map(kept(outbox), (now) => phases.push({ phase, kept: now, scanned: scanned(stateDirectory) }))
    await runWithOutbox(stateDirectory, (outbox) =>
      Effect.gen(function*() {
        yield* compare("empty", outbox)
        const items = yield* outbox.appendAll([
          score("court-1", 1, null), score("court-1", 2, "saturday"), score("court-1", 3, "saturday"), score("court-1", 4, "monday"),
          score("court-2", 5, null), score("court-2", 6, "sunday"),
          { place: "court-1", kind: "click", payload: clickPayload(7), eventKey: "monday", createdAt: 7 },
          { place: "court-2", kind: "click", payload: clickPayload(8), createdAt: 8 }
        ])
        const [unnamed, sat1, sat2, mon, , sun, click1, auto] = items
        yield* outbox.append({ place: "court-1", kind: "undo", payload: { clickItemId: click1!.id }, createdAt: 9 })
        yield* compare("appended", outbox)
        yield* outbox.markDelivered(sat1!.id, { eventKey: "saturday", key: "s1" })
        yield* outbox.markWarning(mon!.id, "no event running")
        yield* outbox.markDead(sun!.id, "refused")
        yield* outbox.markMissed(click1!.id, "footage expired")
        yield* outbox.reschedule(sat2!.id, "timeout", 100, true)
        yield* compare("settled", outbox)
        // A press replaces the auto-highlight: the auto is settled as merged in the same commit.
        yield* outbox.appendMerging({ place: "court-2", kind: "click", payload: clickPayload(10), createdAt: 10 }, [auto!.id])
        yield* outbox.setEventKey(unnamed!.id, "monday")
        yield* compare("merged and re-keyed", outbox)
        expect(yield* outbox.prune(Number.MAX_SAFE_INTEGER)).toBeGreaterThan(0)
        yield* compare("pruned", outbox)
        // The last of a key gone: its row goes too (no zero counts left behind).
        yield* outbox.markDelivered(sat2!.id, {})
        yield* outbox.prune(Number.MAX_SAFE_INTEGER)
        yield* compare("the last saturday entry pruned", outbox)
      }))
    for (const { phase, kept, scanned } of phases) expect(kept, phase).toEqual(scanned)
    expect(phases.find((p) => p.phase === "appended")!.kept).toMatchObject({
      pendingScores: [
        { place: "court-1", eventKey: null, count: 1 },
        { place: "court-1", eventKey: "monday", count: 1 },
        { place: "court-1", eventKey: "saturday", count: 2 },
        { place: "court-2", eventKey: null, count: 1 },
        { place: "court-2", eventKey: "sunday", count: 1 }
      ]
    })
    expect(withDatabase(stateDirectory, (db) => db.prepare("SELECT COUNT(*) AS n FROM item_counts WHERE count <= 0").get()?.["n"])).toBe(0)
  })

  it("are read without reading an item: the plans touch item_counts only", () => {
    const stateDirectory = tempStateDirectory()
    writeBacklogOutbox({ stateDirectory, places: [{ key: "court-1", pastEventKeys: ["saturday"] }], pendingPerPlace: 1, from: 1, to: 1 })
    const plans = withDatabase(stateDirectory, (db) => {
      const sql = outboxStatements(db)
      return [sql.counts, sql.pendingScoresByEvent].flatMap((statement) =>
        db.prepare(`EXPLAIN QUERY PLAN ${statement.sourceSQL}`).all().map((row) => String(row["detail"])))
    })
    expect(plans.filter((line) => /^(SCAN|SEARCH) /.test(line))).toEqual([
      "SCAN item_counts USING INDEX item_counts_key",
      "SEARCH item_counts USING INDEX item_counts_key (state=? AND kind=?)"
    ])
  })

  it("match the items of a backlog written as the daemon writes it (8 places × 1,000 entries of 12 events, 250 delivered each)", async () => {
    const stateDirectory = tempStateDirectory()
    writeBacklogOutbox({
      stateDirectory,
      places: Array.from({ length: 8 }, (_, p) => ({ key: `court-${p + 1}`, pastEventKeys: Array.from({ length: 12 }, (_, e) => `c${p + 1}-e${e}`) })),
      pendingPerPlace: 1_000,
      deliveredPerPlace: 250,
      from: 1,
      to: 3 * 86_400_000
    })
    const counts = await readKept(stateDirectory)
    expect(counts).toEqual(scanned(stateDirectory))
    expect(counts.lanes.reduce((n, c) => n + c.count, 0)).toBe(10_000)
  }, 30_000)
})

describe("the kept counts across versions of the bridge", () => {
  it("are built from the items a file of schema 5 holds when this bridge first opens it", async () => {
    const stateDirectory = tempStateDirectory()
    olderFile(stateDirectory, 5, (db) => {
      const insert = db.prepare(
        "INSERT INTO items (place, kind, payload, event_key, created_at, not_before, state) VALUES (?, 'score', ?, ?, 1, 1, ?)"
      )
      for (let n = 0; n < 30; n++) {
        insert.run(`court-${n % 3}`, JSON.stringify(scorePayload(n)), n % 4 === 0 ? null : `event-${n % 2}`, n % 5 === 0 ? "delivered" : "pending")
      }
    })
    const counts = await readKept(stateDirectory)
    expect(withDatabase(stateDirectory, userVersion)).toBe(6)
    expect(counts).toEqual(scanned(stateDirectory))
    expect(counts.lanes.reduce((n, c) => n + c.count, 0)).toBe(30)
  })

  it("stay right while a bridge of schema 5 writes the file (after a downgrade): the triggers count its writes too", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) => outbox.appendAll([score("court-1", 1, "saturday"), score("court-1", 2, null)]))
    // Schema 5's statements, as that bridge runs them: it knows nothing of item_counts.
    const older = new DatabaseSync(outboxFile(stateDirectory))
    try {
      const insert = older.prepare(
        `INSERT INTO items (place, kind, payload, event_key, dedupe_key, created_at, not_before, received_as)
         VALUES ($place, 'score', $payload, $eventKey, NULL, $createdAt, $createdAt, NULL)`
      )
      const settle = older.prepare(
        `UPDATE items SET state = $state, attempts = attempts + 1, last_error = NULL, result = NULL, settled_at = $settledAt WHERE id = $id`
      )
      for (let n = 3; n < 13; n++) insert.run({ place: `court-${n % 2}`, payload: JSON.stringify(scorePayload(n)), eventKey: n % 3 === 0 ? null : "sunday", createdAt: n })
      for (const id of [1, 3, 4, 5]) settle.run({ id, state: "delivered", settledAt: 10 })
      older.prepare("UPDATE items SET event_key = 'sunday' WHERE id = 2").run()
      older.prepare("DELETE FROM items WHERE state IN ('delivered', 'warning') AND settled_at < 20").run()
    } finally {
      older.close()
    }
    expect(await readKept(stateDirectory)).toEqual(scanned(stateDirectory))
  })
})
