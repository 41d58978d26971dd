import * as fs from "node:fs"
import { Effect, Layer, Logger } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { bridgeVersion } from "../../src/domain/version.ts"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { useOutbox } from "../support/whole-outbox.ts"
import { migrations, oldestReader, schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { outboxStates } from "../support/outbox-file.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { genericEntry, startDelivery } from "./delivery-harness.ts"
import {
  newerBridge,
  newerVersion,
  olderFile,
  outboxFile,
  upgradeAdditively,
  upgradeBreakingly,
  userVersion,
  withDatabase
} from "./newer-outbox.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * A venue goes back one version of the bridge (an automatic rollback, or by hand): the outbox the
 * newer version left must still be delivered by the older one when the newer one changed it only
 * additively, and refused, untouched, when not (newer-outbox.ts makes the newer files). The same
 * with the daemon as a process: downgrade-daemon.test.ts.
 */

const openError = async (stateDirectory: string) => {
  const exit = await Effect.runPromiseExit(Effect.flip(Effect.scoped(Layer.build(Outbox.layer({ stateDirectory })))))
  if (exit._tag === "Failure") throw new Error(`expected an OutboxOpenError, the outbox opened or died: ${exit.cause}`)
  return exit.value
}

let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

describe("the outbox's schema versions", () => {
  it("count the rule's own migration as breaking: bridges before it refuse every newer file anyway", () => {
    expect(migrations[4]).toMatchObject({ change: "breaking" })
  })

  it("keep the oldest reader at schema 5: the kept counts and the score lanes' index (schema 6) are additive", () => {
    expect(migrations[5]).toMatchObject({ change: "additive" })
    expect(schemaVersion).toBe(6)
    expect(oldestReader).toBe(5)
  })

  it("a new file records its oldest reader and the bridge that wrote its schema", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, () => Effect.void)
    const recorded = withDatabase(stateDirectory, (db) => ({
      version: userVersion(db),
      format: { ...db.prepare("SELECT oldest_reader, migrated_by FROM file_format").get() }
    }))
    expect(recorded).toEqual({ version: schemaVersion, format: { oldest_reader: oldestReader, migrated_by: bridgeVersion } })
  })

  it("a file from before the rule (schema 4) is migrated with its pending items, and records the rule", async () => {
    const stateDirectory = tempStateDirectory()
    olderFile(stateDirectory, 4, (db) => {
      db.exec(`INSERT INTO items (place, kind, payload, created_at, not_before) VALUES ('court-1', 'score', '{"timeStamp": 1, "left": 0, "right": 0, "period": 1}', 1, 1)`)
    })
    const pending = await runWithOutbox(stateDirectory, (outbox) => outbox.pending("court-1", "score", 10))
    expect(pending.map((item) => item.payload)).toEqual([{ timeStamp: 1, left: 0, right: 0, period: 1 }])
    expect(withDatabase(stateDirectory, (db) => ({ ...db.prepare("SELECT oldest_reader FROM file_format").get() }))).toEqual({
      oldest_reader: oldestReader
    })
  })
})

describe("an outbox written by a newer bridge", () => {
  it("changed additively: opened as it is, its pending items (theirs and ours) delivered to the service, the newer schema kept", async () => {
    const stateDirectory = tempStateDirectory()
    const pressedAt = Date.now()
    const [ours] = await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll([{ place: "court-1", kind: "score", payload: genericEntry(0, pressedAt), createdAt: pressedAt }]))
    const theirs = upgradeAdditively(stateDirectory, { pressedAt, entry: genericEntry })

    const d = (delivery = await startDelivery(20, { stateDirectory }))
    // Live before the delivery core starts (its first use builds it): nothing is settled as "no event running".
    const { eventKey } = await d.control.startEvent("court-1")
    await d.run(Effect.service(OutboxItems))
    await eventually("every item delivered", () => {
      const states = outboxStates(stateDirectory)
      return states["delivered"] === 4 ? states : undefined
    }, { timeoutMs: 15_000, intervalMs: 50 })

    const event = (await d.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.scoreStream.map((entry) => entry["left"])).toEqual([0, 1, 2])
    // A payload field this bridge does not know goes to the service as the newer bridge wrote it.
    expect(event.scoreStream[2]).toMatchObject({ shotClock: 14 })
    expect(event.moments.map((moment) => moment.metadata?.["clickId"])).toEqual(["newer-click"])
    const file = withDatabase(stateDirectory, (db) => ({
      version: userVersion(db),
      cameras: db.prepare("SELECT id, replay_camera FROM items ORDER BY id").all().map((row) => ({ ...row })),
      notes: db.prepare("SELECT item_id FROM venue_notes").all().map((row) => row["item_id"])
    }))
    expect(file).toEqual({
      version: newerVersion,
      cameras: [{ id: ours!.id, replay_camera: null }, ...theirs.map((id) => ({ id, replay_camera: "camera-2" }))],
      notes: [theirs[2]]
    })
  }, 30_000)

  it("changed additively: says so in one line of the log, however often the daemon opens it", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, () => Effect.void)
    upgradeAdditively(stateDirectory, { pressedAt: Date.now(), entry: genericEntry })
    const logs: Array<string> = []
    const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
    // As the daemon does: a probe while it waits for the state directory, then the outbox it runs with.
    const open = useOutbox(() => Effect.void).pipe(Effect.provide(Outbox.layer({ stateDirectory })))
    await Effect.runPromise(Effect.andThen(open, open).pipe(Effect.provide(Logger.layer([collector]))))
    expect(logs).toEqual([
      `outbox ${outboxFile(stateDirectory)} written by a newer scorebridge (schema ${newerVersion}, scorebridge ${newerBridge}); ` +
      `this version (schema ${schemaVersion}) reads it: pending items are delivered`
    ])
  })

  it("changed additively: what this bridge writes into it leaves the newer column NULL, and settling keeps the newer one's values", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, () => Effect.void)
    const pressedAt = Date.now()
    const [score] = upgradeAdditively(stateDirectory, { pressedAt, entry: genericEntry })
    const appended = await runWithOutbox(stateDirectory, (outbox) =>
      Effect.gen(function*() {
        const item = yield* outbox.append({ place: "court-2", kind: "click", payload: clickPayload(pressedAt), createdAt: pressedAt })
        yield* outbox.markDelivered(score!, { eventKey: "e-1", key: "s-1" })
        return item
      }))
    const rows = withDatabase(stateDirectory, (db) =>
      db.prepare("SELECT id, state, replay_camera FROM items WHERE id IN (?, ?) ORDER BY id").all(score!, appended.id).map((row) => ({ ...row })))
    // The rule for the newer bridge: rows written by an older one hold NULL in its columns.
    expect(rows).toEqual([
      { id: score, state: "delivered", replay_camera: "camera-2" },
      { id: appended.id, state: "pending", replay_camera: null }
    ])
    expect(withDatabase(stateDirectory, userVersion)).toBe(newerVersion)
  })

  it("changed in a way this bridge cannot read: refused with what to do, the file left byte for byte as it was", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) =>
      outbox.append({ place: "court-1", kind: "score", payload: genericEntry(0), createdAt: Date.now() }))
    upgradeBreakingly(stateDirectory)
    const before = fs.readFileSync(outboxFile(stateDirectory))

    const error = await openError(stateDirectory)
    expect(error.message).toBe(
      `cannot open outbox ${outboxFile(stateDirectory)}: it was written by a newer scorebridge (schema version ${schemaVersion + 2}, ` +
        `scorebridge 10.0.0) that this version (schema ${schemaVersion}) cannot read: install scorebridge ≥ 10.0.0 again ` +
        `(apt-get install scorebridge), or move outbox.sqlite aside to start empty — its pending items would then be lost`
    )
    expect(fs.readFileSync(outboxFile(stateDirectory)).equals(before)).toBe(true)
    expect(fs.readdirSync(stateDirectory)).toEqual(["outbox.sqlite"])
  })
})
