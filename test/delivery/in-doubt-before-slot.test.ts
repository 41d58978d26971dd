import { Effect, Option } from "effect"
import { afterEach, expect, it } from "vitest"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import type { RecordedRequest } from "../../simulator/recorder.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { appendPressWithUnknownEvent, genericEntry, startDelivery } from "./delivery-harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** How long the stand-in for a slow disk holds each in-doubt write (a stalled fsync). */
const inDoubtWriteMs = 300

let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

/**
 * The delivery core against the simulator (1 request/s unless told), with the outbox's in-doubt write slowed
 * down. Each in-doubt write notes how many rate slots had been granted when it completed. Written
 * while the item waits, that excludes the item's own slot; written inside the slot, it includes it.
 * Counting slots, not milliseconds, keeps the test exact on a loaded machine.
 */
const startSlowDisk = async ({ requestsPerSecond = 1, stateDirectory }: { requestsPerSecond?: number; stateDirectory?: string } = {}) => {
  let budget: RateBudget["Service"] | undefined
  const marks: Array<{ readonly id: number; readonly slotsGranted: number }> = []
  const noteSlots = (id: number) =>
    Effect.suspend(() =>
      budget === undefined ? Effect.void : Effect.map(budget.snapshot, (s) => { marks.push({ id, slotsGranted: s.sentLastMinute }) })
    )
  const d = await startDelivery(requestsPerSecond, {
    ...(stateDirectory === undefined ? {} : { stateDirectory }),
    wrapOutbox: (outbox) => ({
      ...outbox,
      markSending: (id, sentTo) =>
        Effect.sleep(inDoubtWriteMs).pipe(Effect.andThen(noteSlots(id)), Effect.andThen(outbox.markSending(id, sentTo)))
    })
  })
  // Live before the delivery core starts (its first use builds it), so nothing waits on a look-up.
  const { eventKey } = await d.control.startEvent("court-1")
  budget = await d.run(Effect.service(RateBudget))
  /**
   * Which slot a request used: its place among every request the service received. Each slot is one
   * request; a read-back after a timeout on a loaded machine takes a slot of its own and is counted too.
   */
  const slotOf = async (isIt: (request: RecordedRequest) => boolean) => {
    const all = await d.control.requests({ pathPrefix: "/public/" })
    return all.findIndex(isIt) + 1
  }
  return Object.assign(d, { eventKey, marks, slotOf })
}

const appendScores = async (d: NonNullable<typeof delivery>, count: number) => {
  const base = Date.now()
  const ids: Array<number> = []
  for (let i = 0; i < count; i++) {
    ids.push((await d.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i })).id)
  }
  return ids
}

const scorePosts = (d: NonNullable<typeof delivery>, status?: number) =>
  d.control.requests({ pathPrefix: "/public/places/court-1/score", ...(status === undefined ? {} : { status }) })

it("a slow in-doubt write is made while the item waits for its slot: a backlog still leaves one slot apart", async () => {
  const d = (delivery = await startSlowDisk())
  const ids = await appendScores(d, 5)
  await eventually("5 entries", async () => ((await scorePosts(d, 200)).length === 5 ? true : undefined), { timeoutMs: 15_000, intervalMs: 50 })
  const posts = await scorePosts(d)
  expect(posts.filter((r) => r.status === 429)).toEqual([])
  for (const [i, post] of posts.slice(1).entries()) expect(post.at - posts[i]!.at).toBeGreaterThanOrEqual(990)
  expect(d.marks.map((mark) => mark.id)).toEqual(ids)
  for (const [left, id] of ids.entries()) {
    const slot = await d.slotOf((r) => r.status === 200 && (r.body as { left?: number }).left === left)
    // Marked inside its slot, each write would push every later slot back by its 300 ms.
    expect(d.marks.find((mark) => mark.id === id)!.slotsGranted, `slots granted when entry ${left} was marked`).toBeLessThan(slot)
  }
}, 30_000)

it("an item shut down while it waits for its slot is not left in doubt", async () => {
  // Slots 5 s apart: the shutdown lands while the second entry waits, even on a loaded machine.
  const d = (delivery = await startSlowDisk({ requestsPerSecond: 0.2 }))
  const ids = await appendScores(d, 3)
  // The first entry goes out; the second is marked and waits for the next slot.
  await eventually("the first entry", async () => ((await scorePosts(d, 200)).length === 1 ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })
  const sentAtOf = (id: number) => d.run(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.get(id))).then((item) => Option.getOrThrow(item).sentAt)
  await eventually("the second entry's in-doubt mark, well before its slot", async () => ((await sentAtOf(ids[1]!)) !== null ? true : undefined), { timeoutMs: 3_000, intervalMs: 50 })
  await d.runtime.dispose()

  // As the next process finds it: pending and not in doubt, so it is sent without a read-back.
  const reopened = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    return yield* Effect.forEach(ids, (id) => Effect.map(outbox.get(id), Option.getOrThrow))
  }).pipe(Effect.provide(Outbox.layer({ stateDirectory: d.stateDirectory })))))
  expect(reopened.map((item) => item.state)).toEqual(["delivered", "pending", "pending"])
  expect(reopened.map((item) => item.sentAt)).toEqual([expect.any(Number), null, null])
  expect(await scorePosts(d)).toHaveLength(1)
}, 30_000)

it("an item shut down while its in-doubt mark waits for the disk is not left in doubt", async () => {
  // The disk never confirms the second entry's writes: the shutdown lands while it waits for them,
  // after its mark and before its slot (a slow card under load made the window real in CI).
  const stalled = new Set<number>()
  const d = (delivery = await startDelivery(1, {
    wrapOutbox: (outbox) => ({ ...outbox, onDisk: (id) => (stalled.has(id) ? Effect.never : outbox.onDisk(id)) })
  }))
  await d.control.startEvent("court-1")
  const first = await d.append({ place: "court-1", kind: "score", payload: genericEntry(0, Date.now()), createdAt: Date.now() })
  await eventually("the first entry", async () => ((await scorePosts(d, 200)).length === 1 ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })
  // Ids are given in order: the next append is first.id + 1.
  stalled.add(first.id + 1)
  const second = await d.append({ place: "court-1", kind: "score", payload: genericEntry(1, Date.now()), createdAt: Date.now() })
  const sentAtOf = (id: number) => d.run(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.get(id))).then((item) => Option.getOrThrow(item).sentAt)
  await eventually("the second entry's in-doubt mark", async () => ((await sentAtOf(second.id)) !== null ? true : undefined), { timeoutMs: 3_000, intervalMs: 50 })
  await d.runtime.dispose()

  const reopened = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    return yield* Effect.map((yield* wholeOutbox).get(second.id), Option.getOrThrow)
  }).pipe(Effect.provide(Outbox.layer({ stateDirectory: d.stateDirectory })))))
  expect(reopened.state).toBe("pending")
  expect(reopened.sentAt).toBeNull()
}, 30_000)

it("a click whose event had to be looked up is marked while it waits for its second slot", async () => {
  const d = (delivery = await startSlowDisk())
  await appendPressWithUnknownEvent(d, "slow-disk-lookup")
  const clicksPath = `/public/events/${d.eventKey}/clicks`
  await eventually("the click", async () => ((await d.control.requests({ pathPrefix: clicksPath, status: 200 })).length === 1 ? true : undefined), { timeoutMs: 8_000, intervalMs: 50 })
  const lookupSlot = await d.slotOf((r) => r.path === "/public/places/court-1/activeEventKey")
  const clickSlot = await d.slotOf((r) => r.path === clicksPath && r.status === 200)
  expect(lookupSlot).toBeGreaterThan(0)
  expect(clickSlot).toBeGreaterThan(lookupSlot)
  // Marked once, after the look-up's slot and before the post's own.
  expect(d.marks).toHaveLength(1)
  expect(d.marks[0]!.slotsGranted).toBeGreaterThanOrEqual(lookupSlot)
  expect(d.marks[0]!.slotsGranted).toBeLessThan(clickSlot)
}, 20_000)

it("an entry left in doubt that the read-back does not find is marked again while it waits for the resend's slot", async () => {
  // As a restart after kill -9 finds it: marked as sent to the place, but it never reached the service.
  const stateDirectory = tempDir("delivery")
  const createdAt = Date.now()
  const leftInDoubt = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const item = yield* outbox.append({ place: "court-1", kind: "score", payload: genericEntry(0, createdAt), createdAt })
    yield* outbox.markSending(item.id, "place")
    return item.id
  }).pipe(Effect.provide(Outbox.layer({ stateDirectory })))))

  const d = (delivery = await startSlowDisk({ stateDirectory }))
  await eventually("the resent entry", async () => ((await scorePosts(d, 200)).length === 1 ? true : undefined), { timeoutMs: 8_000, intervalMs: 50 })
  const readBack = await d.slotOf((r) => r.method === "GET" && r.path === `/public/events/${d.eventKey}`)
  const resend = await d.slotOf((r) => r.path === "/public/places/court-1/score" && r.status === 200)
  expect(readBack).toBeGreaterThan(0)
  expect(resend).toBeGreaterThan(readBack)
  // Marked once more, for the resend: after the read-back's slot, before the resend's own.
  expect(d.marks.map((mark) => mark.id)).toEqual([leftInDoubt])
  expect(d.marks[0]!.slotsGranted).toBeGreaterThanOrEqual(readBack)
  expect(d.marks[0]!.slotsGranted).toBeLessThan(resend)
}, 20_000)
