import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterEach, describe, expect, it } from "vitest"
import { Cause, Effect, Exit, Logger, Option } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { useOutbox } from "../support/whole-outbox.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { genericEntry, startDelivery } from "./delivery-harness.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * Rows broken behind the outbox's back (a hand edit, another program, a bug): written here with
 * SQLite directly while the outbox is closed, then read by a fresh one, as after a restart.
 */
const withDatabase = <A>(stateDirectory: string, run: (db: DatabaseSync) => A): A => {
  const db = new DatabaseSync(path.join(stateDirectory, "outbox.sqlite"))
  try {
    return run(db)
  } finally {
    db.close()
  }
}

const breakPayload = (stateDirectory: string, id: number, payload: string) =>
  withDatabase(stateDirectory, (db) => db.prepare("UPDATE items SET payload = ? WHERE id = ?").run(payload, id))

const rawRow = (stateDirectory: string, id: number) =>
  withDatabase(stateDirectory, (db) => ({ ...db.prepare("SELECT payload, state, attempts FROM items WHERE id = ?").get(id) }))

const score = (place: string, n: number) => ({ place, kind: "score" as const, payload: genericEntry(n, 1_000), createdAt: 1_000 + n })

describe("a malformed row in the outbox", () => {
  it("is passed over by every list, its lane going on with the next item; asked for by id, it is an error naming it", async () => {
    const stateDirectory = tempStateDirectory()
    const [bad, next, click, other] = await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll([
        score("court-1", 1),
        score("court-1", 2),
        { place: "court-1", kind: "click", payload: clickPayload(1_003), createdAt: 1_003 },
        score("court-2", 4)
      ]))
    breakPayload(stateDirectory, bad!.id, "{\"timeStamp\": 1001, \"left\"")
    const badClick = withDatabase(stateDirectory, (db) =>
      Number(db.prepare("INSERT INTO items (place, kind, payload, created_at, not_before) VALUES ('court-1', 'click', '[1]', 1005, 1005)")
        .run().lastInsertRowid))

    const logs: Array<string> = []
    const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
    const seen = await Effect.runPromise(useOutbox((outbox) =>
      Effect.gen(function*() {
        const heads = yield* outbox.heads
        yield* outbox.heads
        return {
          heads: heads.map((item) => item.id),
          scores: (yield* outbox.pending("court-1", "score", 10)).map((item) => item.id),
          clicks: (yield* outbox.pending("court-1", "click", 10)).map((item) => item.id),
          recent: (yield* outbox.recent("court-1", 10)).map((item) => item.id),
          lastClick: Option.map(yield* outbox.lastOf("court-1", "click"), (item) => item.id),
          got: yield* Effect.exit(outbox.get(bad!.id)),
          counts: yield* outbox.counts
        }
      })).pipe(Effect.provide(Outbox.layer({ stateDirectory })), Effect.provide(Logger.layer([collector]))))

    expect(seen.heads).toEqual([next!.id, click!.id, other!.id])
    expect(seen.scores).toEqual([next!.id])
    expect(seen.clicks).toEqual([click!.id])
    expect(seen.recent).toEqual([click!.id, next!.id])
    expect(seen.lastClick).toEqual(Option.some(click!.id))
    const failure = Exit.isFailure(seen.got) ? Cause.squash(seen.got.cause) : expect.unreachable("get of a malformed item succeeded")
    expect(failure).toMatchObject({ _tag: "OutboxReadError", reason: `item #${bad!.id} is malformed (payload: Expected a valid JSON string)` })
    // Still counted: it is pending, and someone has to look at it.
    expect(seen.counts).toContainEqual({ place: "court-1", kind: "score", state: "pending", count: 2 })
    // Reported once each, however often it is read past.
    expect(logs.filter((line) => line.includes(`item #${bad!.id} is malformed`))).toHaveLength(1)
    expect(logs.filter((line) => line.includes(`item #${badClick} is malformed (payload: Expected object)`))).toHaveLength(1)
    expect(logs.join("\n")).toContain("left in the file as it is and passed over: a pending one is not sent")
    // Left as it was found.
    expect(rawRow(stateDirectory, bad!.id)).toEqual({ payload: "{\"timeStamp\": 1001, \"left\"", state: "pending", attempts: 0 })
  })

  it("an append whose dedupe key finds a malformed row fails and writes nothing", async () => {
    const stateDirectory = tempStateDirectory()
    const first = await runWithOutbox(stateDirectory, (outbox) => outbox.append({ ...score("court-1", 1), dedupeKey: "k-1" }))
    breakPayload(stateDirectory, first.id, "oops")
    const exit = await Effect.runPromiseExit(useOutbox((outbox) =>
      Effect.flatMap(Effect.flip(outbox.append({ ...score("court-1", 1), dedupeKey: "k-1" })), (error) =>
        Effect.map(outbox.counts, (counts) => ({ error, counts })))
    ).pipe(Effect.provide(Outbox.layer({ stateDirectory }))))
    const { error, counts } = Exit.isSuccess(exit) ? exit.value : expect.unreachable(String(exit))
    expect(error.message).toContain(`item #${first.id} is malformed (payload: Expected a valid JSON string)`)
    expect(counts).toEqual([{ place: "court-1", kind: "score", state: "pending", count: 1 }])
  })

  it("an append of a payload that is not its kind's is refused before it is stored", async () => {
    const stateDirectory = tempStateDirectory()
    const { error, counts } = await runWithOutbox(stateDirectory, (outbox) =>
      Effect.flatMap(Effect.flip(outbox.append({ place: "p", kind: "undo", payload: { clickItemId: 41.5 }, createdAt: 1 })), (error) =>
        Effect.map(outbox.counts, (counts) => ({ error, counts }))))
    expect(error._tag).toBe("OutboxWriteError")
    expect(error.message).toContain("the payload cannot be stored (clickItemId: Expected an integer)")
    expect(counts).toEqual([])
  })
})

describe("the scheduler and a malformed row", () => {
  let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
  afterEach(async () => {
    await delivery?.close()
    delivery = undefined
  })

  it("sends the entries around it, in order, and never the malformed one", async () => {
    const d = (delivery = await startDelivery(20))
    const { eventKey } = await d.control.startEvent("court-1")
    const scoresOf = async () => (await d.control.state()).events.find((e) => e.key === eventKey)?.scoreStream ?? []
    const base = Date.now()
    await d.append({ place: "court-1", kind: "score", payload: genericEntry(0, base), createdAt: base })
    await eventually("the first entry", async () => ((await scoresOf()).length === 1 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 })
    // Another program writes the next entry while the daemon runs; the daemon's next append wakes its scheduler.
    const bad = withDatabase(d.stateDirectory, (db) =>
      Number(db.prepare("INSERT INTO items (place, kind, payload, created_at, not_before) VALUES ('court-1', 'score', ?, ?, ?)")
        .run(`{"timeStamp":${base + 1},"left":1,`, base + 1, base + 1).lastInsertRowid))
    await d.append({ place: "court-1", kind: "score", payload: genericEntry(2, base), createdAt: base + 2 })
    // The lane is in order: had the malformed entry been sent, it would have been before the third.
    const scores = await eventually("the entry after the malformed one", async () => {
      const now = await scoresOf()
      return now.length >= 2 ? now : undefined
    }, { timeoutMs: 10_000, intervalMs: 50 })
    expect(scores.map((s) => s["left"])).toEqual([0, 2])
    expect(await d.run(useOutbox((outbox) => outbox.counts))).toEqual([
      { place: "court-1", kind: "score", state: "delivered", count: 2 },
      { place: "court-1", kind: "score", state: "pending", count: 1 }
    ])
    expect(rawRow(d.stateDirectory, bad)).toMatchObject({ state: "pending", attempts: 0 })
  }, 30_000)
})
