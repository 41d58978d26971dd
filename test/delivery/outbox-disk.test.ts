import { describe, expect, it } from "vitest"
import { Context, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { SyncsInFlight } from "../../src/delivery/outbox-disk.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"
import { scorePayload } from "../support/outbox-payloads.ts"

/** An fsync that ends when the test says so. */
const heldSyncs = () => {
  const pending: Array<(error: Error | null) => void> = []
  return { sync: (done: (error: Error | null) => void) => void pending.push(done), finishNext: () => pending.shift()!(null), pending }
}

/** Whether `ended` has completed after letting the fibers run. */
const endedYet = async (fiber: Fiber.Fiber<void>) => {
  await new Promise((resolve) => setImmediate(resolve))
  return fiber.pollUnsafe() !== undefined
}

describe("closing waits for the fsyncs in flight, without polling", () => {
  it("completes at once when none is in flight", async () => {
    expect(await endedYet(Effect.runFork(new SyncsInFlight().ended))).toBe(true)
  })

  it("waits for the last fsync to end, including one started by the end of another", async () => {
    const syncs = new SyncsInFlight()
    const held = heldSyncs()
    const sync = syncs.track(held.sync)
    // As the group commit does: the end of one fsync starts the next, for commits made meanwhile.
    sync(() => sync(() => undefined))
    const ended = Effect.runFork(syncs.ended)
    expect(await endedYet(ended)).toBe(false)
    held.finishNext()
    expect(held.pending).toHaveLength(1)
    expect(await endedYet(ended)).toBe(false)
    held.finishNext()
    expect(await endedYet(ended)).toBe(true)
  })

  it("counts an fsync that failed as ended", async () => {
    const syncs = new SyncsInFlight()
    const held = heldSyncs()
    const errors: Array<Error | null> = []
    syncs.track(held.sync)((error) => errors.push(error))
    const ended = Effect.runFork(syncs.ended)
    held.pending.shift()!(new Error("EIO"))
    expect(errors).toEqual([new Error("EIO")])
    expect(await endedYet(ended)).toBe(true)
  })

  it("does not count an fsync that failed to start", async () => {
    const syncs = new SyncsInFlight()
    const sync = syncs.track(() => {
      throw new Error("EBADF")
    })
    expect(() => sync(() => undefined)).toThrow("EBADF")
    expect(await endedYet(Effect.runFork(syncs.ended))).toBe(true)
  })

  it("an outbox closes as soon as its writes are on disk", async () => {
    const stateDirectory = tempStateDirectory()
    const started = performance.now()
    await runWithOutbox(stateDirectory, (outbox) =>
      Effect.forEach([1, 2, 3], (n) => outbox.append({ place: "p", kind: "score", payload: scorePayload(n), createdAt: n }), { concurrency: 3 }))
    // The close's wait gives up after 3 s; an outbox that reached it would take that long.
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it("a commit whose fsync is queued but not started when the close begins is on disk before the files close", async () => {
    const stateDirectory = tempStateDirectory()
    const onDisk = await Effect.runPromise(Effect.gen(function*() {
      const scope = yield* Scope.make()
      const outbox = Context.get(yield* Layer.buildWithScope(Outbox.layer({ stateDirectory }), scope), OutboxItems)
      // Committed: its fsync starts at the end of this turn of the event loop, after the close has begun.
      const [item] = yield* outbox.appendAll([{ place: "p", kind: "score", payload: scorePayload(1), createdAt: 1 }], { wait: "commit" })
      const waiting = Effect.runFork(outbox.onDisk(item!.id))
      yield* Scope.close(scope, Exit.void)
      return yield* Fiber.await(waiting)
    }))
    // Closed under it, the fsync found its descriptor gone (EBADF): the outbox took that for a failed disk.
    expect(onDisk).toStrictEqual(Exit.void)
  })
})
