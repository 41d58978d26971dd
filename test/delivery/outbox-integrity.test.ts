import * as fs from "node:fs"
import { Effect, Logger, SubscriptionRef } from "effect"
import { describe, expect, it } from "vitest"
import { Outbox, type OutboxIntegrity } from "../../src/delivery/outbox.ts"
import type { LinkState } from "../../src/domain/received.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import { statusModelLayer } from "../status/status-model-layer.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { useOutbox, type WholeOutbox } from "../support/whole-outbox.ts"
import { scorePayload } from "../support/outbox-payloads.ts"
import { outboxFile, withDatabase } from "./newer-outbox.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"

/**
 * The open checks only what it reads whole (the schema, the small tables): a quick check of the
 * whole file reads every page, 130–270 ms on the event loop for a weekend's backlog, twice before
 * READY. The whole file is checked after the start in a child process, and what it finds is the
 * outbox's health (OutboxHealth.integrity, shown on the status page and /healthz).
 */

/** The integrity once the check of the whole file has answered. */
const checked = (outbox: WholeOutbox) =>
  Effect.promise(() =>
    eventually("the check of the whole file", () => {
      const integrity = Effect.runSync(outbox.integrity)
      return integrity.state === "checking" ? undefined : integrity
    }, { timeoutMs: 15_000 }))

/** Runs `body` on the outbox, checked at once, with the log's lines collected. */
const withLog = async <A>(stateDirectory: string, body: (outbox: WholeOutbox) => Effect.Effect<A, unknown>) => {
  const logs: Array<string> = []
  const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
  const result = await Effect.runPromise(
    useOutbox(body).pipe(
      Effect.provide(Outbox.layer({ stateDirectory, integrityCheck: { afterMs: 0 } })),
      Effect.provide(Logger.layer([collector]))
    )
  )
  return { result, logs }
}

const marked = (n: number) => Object.assign(scorePayload(n), { note: `entry-${String(n).padStart(4, "0")}-${"x".repeat(300)}` })

/** Damages the page of the file that holds `marker`: a page of `items`, none the open reads. */
const damagePageHolding = (stateDirectory: string, marker: string) => {
  const file = outboxFile(stateDirectory)
  const bytes = fs.readFileSync(file)
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65_536 : bytes.readUInt16BE(16)
  const at = bytes.indexOf(marker)
  expect(at).toBeGreaterThan(pageSize)
  const page = Math.floor(at / pageSize) * pageSize
  // The b-tree page's type and its first cells' pointers.
  bytes.fill(0xff, page, page + 12)
  fs.writeFileSync(file, bytes)
}

describe("the outbox's integrity", () => {
  it("is 'checking' until the whole file has been read off the event loop, then 'ok'", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll(Array.from({ length: 50 }, (_, n) => ({ place: "court-1", kind: "score" as const, payload: scorePayload(n), createdAt: n }))))
    // By default the check waits for the start's own work.
    expect(await runWithOutbox(stateDirectory, (outbox) => outbox.integrity)).toEqual({ state: "checking" })
    const { result, logs } = await withLog(stateDirectory, checked)
    expect(result).toMatchObject({ state: "ok" })
    expect(logs.filter((line) => /whole file/.test(line))).toEqual([
      expect.stringMatching(/^outbox .*outbox\.sqlite: the whole file checked, no problem found \(\d+ ms, off the event loop\)$/)
    ])
  })

  it("a damaged page of items: the outbox opens (the open reads none of it), then the check finds it and says so", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll(Array.from({ length: 400 }, (_, n) => ({ place: "court-1", kind: "score" as const, payload: marked(n), createdAt: n }))))
    damagePageHolding(stateDirectory, "entry-0200-")
    const { result, logs } = await withLog(stateDirectory, (outbox) =>
      Effect.gen(function*() {
        const integrity: OutboxIntegrity = yield* checked(outbox)
        // Where the damaged page is read, that read fails (and says why).
        const read = yield* Effect.flip(outbox.recent("court-1", 400))
        return { integrity, read: read.message }
      }))
    expect(result.integrity, JSON.stringify(result.integrity)).toMatchObject({ state: "corrupt" })
    expect(result.integrity.state === "corrupt" && result.integrity.problems.length).toBeGreaterThan(0)
    expect(result.read).toContain("corrupt")
    expect(logs).toContainEqual(expect.stringMatching(/^outbox .* is corrupt \(.+\): the items that can still be read are delivered/))
  })

  it("found corrupt, the file is a reason on the status page and /healthz", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll(Array.from({ length: 400 }, (_, n) => ({ place: "court-1", kind: "score" as const, payload: marked(n), createdAt: n }))))
    damagePageHolding(stateDirectory, "entry-0300-")
    const options: StatusOptions = { places: [{ key: "court-1", buttonSources: [] }], buttons: [], mqtt: false }
    const reasons = await Effect.runPromise(
      Effect.gen(function*() {
        const broker = yield* SubscriptionRef.make<LinkState>({ _tag: "connecting", target: "unused" })
        return yield* Effect.gen(function*() {
          const status = yield* BridgeStatus
          return yield* Effect.promise(() =>
            eventually("the status to name the corrupt file", () => {
              const snapshot = Effect.runSync(status.snapshot)
              return snapshot.reasons.some((reason) => reason.startsWith("outbox file corrupt")) && !snapshot.healthy ? snapshot.reasons : undefined
            }, { timeoutMs: 15_000 }))
        }).pipe(Effect.provide(statusModelLayer(broker, stateDirectory, options, { integrityCheck: { afterMs: 0 } })))
      })
    )
    expect(reasons).toContainEqual(expect.stringMatching(/^outbox file corrupt: .+; move it aside to start with an empty outbox$/))
  })

  it("counts that disagree with the items are logged and counted again from the items", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) =>
      outbox.appendAll(Array.from({ length: 20 }, (_, n) => ({ place: `court-${n % 2}`, kind: "score" as const, payload: scorePayload(n), createdAt: n }))))
    withDatabase(stateDirectory, (db) => db.exec("UPDATE item_counts SET count = count + 7"))
    const { result, logs } = await withLog(stateDirectory, (outbox) =>
      Effect.gen(function*() {
        yield* checked(outbox)
        return yield* Effect.promise(() =>
          eventually("the counts rebuilt", () => {
            const counts = Effect.runSync(outbox.counts)
            return counts.every((c) => c.count === 10) ? counts : undefined
          }))
      }))
    expect(result).toEqual([
      { place: "court-0", kind: "score", state: "pending", count: 10 },
      { place: "court-1", kind: "score", state: "pending", count: 10 }
    ])
    expect(logs).toContainEqual(expect.stringMatching(/the kept counts disagreed with the items; counted again from the items$/))
  })

  it("closed while the check is still to run or running: the outbox closes, and opens again as it was", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, (outbox) => outbox.append({ place: "court-1", kind: "score", payload: scorePayload(1), createdAt: 1 }))
    for (let n = 0; n < 3; n++) await withLog(stateDirectory, () => Effect.void)
    const pending = await runWithOutbox(stateDirectory, (outbox) => outbox.pending("court-1", "score", 10))
    expect(pending.map((item) => item.payload)).toEqual([scorePayload(1)])
  })
})
