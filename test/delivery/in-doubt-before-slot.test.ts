import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime, Option, Redacted, References } from "effect"
import { afterEach, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { Scheduler } from "../../src/delivery/scheduler.ts"
import { serviceDeliverer } from "../../src/delivery/service-deliverer.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { SimulatorControl } from "../../src/simulator/control-client.ts"
import { startSimulator } from "../../src/simulator/index.ts"
import { BridgeEvents } from "../../src/status/bridge-events.ts"
import { basketballSeed, genericEntry, waitFor } from "./delivery-harness.ts"

/** How long the stand-in for a slow disk holds each in-doubt write (a stalled fsync). */
const inDoubtWriteMs = 300

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * The delivery core as `deliveryLayer` builds it, against the simulator at 1 request/s, with the
 * outbox's in-doubt write slowed down: the one disk write a request waits for before it leaves.
 */
const startSlowDisk = async () => {
  const sim = await startSimulator({ port: 0, requestsPerSecond: 1, burst: 1, seed: basketballSeed })
  const stateDirectory = mkdtempSync(join(tmpdir(), "scorebridge-slow-disk-"))
  const slowOutbox = Layer.effect(Outbox, Effect.gen(function*() {
    const outbox = yield* Outbox
    return Outbox.of({
      ...outbox,
      markSending: (id, sentTo) => Effect.sleep(inDoubtWriteMs).pipe(Effect.andThen(outbox.markSending(id, sentTo)))
    })
  })).pipe(Layer.provide(Outbox.layer({ stateDirectory })))
  const shared = Layer.mergeAll(
    slowOutbox,
    RateBudget.layer({ requestsPerSecond: 1 }),
    ActiveEvents.layer,
    BridgeEvents.layer,
    ServiceClient.layer({ baseUrl: sim.url, token: Redacted.make("demo-token"), timeoutMs: 2_000 })
  )
  const layer = Scheduler.layer.pipe(Layer.provide(serviceDeliverer()), Layer.provideMerge(shared)).pipe(
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error"))
  )
  const runtime = ManagedRuntime.make(layer)
  cleanups.push(async () => {
    await runtime.dispose()
    await sim.close()
    rmSync(stateDirectory, { recursive: true, force: true })
  })
  const outbox = <A, E>(use: (outbox: Outbox["Service"]) => Effect.Effect<A, E>) =>
    runtime.runPromise(Effect.gen(function*() {
      return yield* use(yield* Outbox)
    }))
  const wake = () =>
    runtime.runPromise(Effect.gen(function*() {
      yield* (yield* Scheduler).wake
    }))
  return { sim, control: new SimulatorControl(sim.url), outbox, wake, runtime, stateDirectory }
}

it("a slow in-doubt write is made while the item waits for its slot: a backlog still leaves one slot apart", async () => {
  const d = await startSlowDisk()
  await d.control.startEvent("court-1")
  const base = Date.now()
  for (let i = 0; i < 5; i++) {
    await d.outbox((outbox) => outbox.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i }))
  }
  await d.wake()
  await waitFor(async () => (await d.control.requests({ pathPrefix: "/public/places/court-1/score", status: 200 })).length === 5, 15_000, "5 entries")
  const posts = await d.control.requests({ pathPrefix: "/public/places/court-1/score" })
  expect(posts.filter((r) => r.status === 429)).toEqual([])
  // Marked inside the slot, each write would push every later slot back by its 300 ms.
  const gaps = posts.slice(1).map((r, i) => r.at - posts[i]!.at)
  for (const gap of gaps) {
    expect(gap).toBeGreaterThanOrEqual(990)
    expect(gap).toBeLessThan(1000 + inDoubtWriteMs / 2)
  }
}, 30_000)

it("an item shut down while it waits for its slot is not left in doubt", async () => {
  const d = await startSlowDisk()
  await d.control.startEvent("court-1")
  const base = Date.now()
  const ids: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const item = await d.outbox((outbox) => outbox.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i }))
    ids.push(item.id)
  }
  await d.wake()
  // The first entry goes out; the second is marked and waits for the next slot.
  await waitFor(async () => (await d.control.requests({ pathPrefix: "/public/places/court-1/score", status: 200 })).length === 1, 5_000, "the first entry")
  const sentAtOf = (id: number) => d.outbox((outbox) => outbox.get(id)).then((item) => Option.getOrThrow(item).sentAt)
  await waitFor(async () => (await sentAtOf(ids[1]!)) !== null, 5_000, "the second entry's in-doubt mark")
  await d.runtime.dispose()

  // As the next process finds it: pending and not in doubt, so it is sent without a read-back.
  const reopened = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const outbox = yield* Outbox
    return yield* Effect.forEach(ids, (id) => Effect.map(outbox.get(id), Option.getOrThrow))
  }).pipe(Effect.provide(Outbox.layer({ stateDirectory: d.stateDirectory })))))
  expect(reopened.map((item) => item.state)).toEqual(["delivered", "pending", "pending"])
  expect(reopened.map((item) => item.sentAt)).toEqual([expect.any(Number), null, null])
  expect(await d.control.requests({ pathPrefix: "/public/places/court-1/score" })).toHaveLength(1)
}, 30_000)
