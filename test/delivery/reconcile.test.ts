import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { genericEntry, startDelivery } from "./delivery-harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

describe("unknown outcomes are reconciled, not blindly resent", () => {
  it("a score applied by the service whose answer was lost is found in the event and not sent twice", async () => {
    const d = (delivery = await startDelivery(10))
    const { eventKey } = await d.control.startEvent("court-1")
    const base = Date.now()
    await d.append({ place: "court-1", kind: "score", payload: genericEntry(0, base), createdAt: base })
    await eventually("the first entry", async () => ((await d.control.requests()).some((r) => r.status === 200) ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })

    await d.control.injectFault({ kind: "reset-after-apply", count: 1, pathPrefix: "/public/places/court-1/score" })
    const later = [
      await d.append({ place: "court-1", kind: "score", payload: genericEntry(1, base), createdAt: base + 1 }),
      await d.append({ place: "court-1", kind: "score", payload: genericEntry(2, base), createdAt: base + 2 })
    ]
    // Settled: a delivered item is never sent again, so what the event holds now is final.
    await eventually("both entries settled", async () => {
      const states = await Promise.all(later.map((item) => d.run(outboxState(item.id))))
      return states.every((state) => state === "delivered") ? true : undefined
    }, { timeoutMs: 15_000, intervalMs: 50 })
    const event = (await d.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.scoreStream.map((s) => s["left"])).toEqual([0, 1, 2])
    const requests = await d.control.requests()
    // The look-up that settled it: the event read back after the reset.
    expect(requests.some((r) => r.method === "GET" && r.path === `/public/events/${eventKey}`)).toBe(true)
  }, 30_000)

  it("a click applied by the service whose answer was lost is found by its click id: one moment, not two", async () => {
    const d = (delivery = await startDelivery(10))
    const { eventKey } = await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "reset-after-apply", count: 1, pathPrefix: `/public/events/${eventKey}/clicks` })
    const pressedAt = Date.now()
    const click = await d.append({
      place: "court-1",
      kind: "click",
      eventKey,
      payload: clickPayload(pressedAt, { clickId: "press-42" }),
      createdAt: pressedAt
    })
    await eventually("the click settled", async () => {
      const state = await d.run(outboxState(click.id))
      return state === "delivered" ? true : undefined
    }, { timeoutMs: 15_000, intervalMs: 50 })
    const event = (await d.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.moments).toHaveLength(1)
    expect(event.moments[0]!.metadata).toMatchObject({ clickId: "press-42" })
    const posts = (await d.control.requests()).filter((r) => r.path.endsWith("/clicks"))
    expect(posts).toHaveLength(1)
  }, 30_000)

  it("stays in doubt when the read-back itself fails: looks again rather than resending", async () => {
    const d = (delivery = await startDelivery(10))
    const { eventKey } = await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "reset-after-apply", count: 1, pathPrefix: `/public/events/${eventKey}/clicks` })
    await d.control.injectFault({ kind: "status", status: 503, count: 1, pathPrefix: `/public/events/${eventKey}` })
    const pressedAt = Date.now()
    const click = await d.append({ place: "court-1", kind: "click", eventKey, payload: clickPayload(pressedAt, { clickId: "press-44" }), createdAt: pressedAt })
    await eventually("the click settled", async () => ((await d.run(outboxState(click.id))) === "delivered" ? true : undefined), { timeoutMs: 15_000, intervalMs: 50 })
    const requests = await d.control.requests()
    expect(requests.filter((r) => r.method === "GET" && r.path === `/public/events/${eventKey}`).map((r) => r.status)).toEqual([503, 200])
    expect(requests.filter((r) => r.path.endsWith("/clicks"))).toHaveLength(1)
    expect((await d.control.state()).events.find((e) => e.key === eventKey)!.moments).toHaveLength(1)
  }, 30_000)

  it("a request that never reached the service (connection reset before apply) is sent again", async () => {
    const d = (delivery = await startDelivery(10))
    const { eventKey } = await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "reset", count: 1, pathPrefix: `/public/events/${eventKey}/clicks` })
    const pressedAt = Date.now()
    const click = await d.append({ place: "court-1", kind: "click", eventKey, payload: clickPayload(pressedAt, { clickId: "press-43" }), createdAt: pressedAt })
    await eventually("the click settled", async () => ((await d.run(outboxState(click.id))) === "delivered" ? true : undefined), { timeoutMs: 15_000, intervalMs: 50 })
    const event = (await d.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.moments).toHaveLength(1)
    expect((await d.control.requests()).filter((r) => r.path.endsWith("/clicks"))).toHaveLength(2)
  }, 30_000)

  it("after a restart that knows no event yet, a score left in doubt is looked for in the place's live event: applied once, not twice", async () => {
    // What kill -9 leaves behind: the first entry of the run (no event known when it was captured),
    // marked as sent to the place; the service applied it, the answer was never recorded.
    const stateDirectory = tempDir("delivery")
    const entry = genericEntry(0)
    const leftInDoubt = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const item = yield* outbox.append({ place: "court-1", kind: "score", payload: entry, createdAt: entry.timeStamp })
      yield* outbox.markSending(item.id, "place")
      return item.id
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory })))))
    const d = (delivery = await startDelivery(10, { stateDirectory }))
    const { eventKey } = await d.control.startEvent("court-1")
    const applied = await fetch(`${d.sim.url}/public/places/court-1/score`, {
      method: "POST",
      headers: { authorization: "Bearer demo-token", "content-type": "application/json" },
      body: JSON.stringify(entry)
    })
    expect(applied.status).toBe(200)
    // The token's rate budget (10/s) refills before the restarted daemon's first request.
    await new Promise((resolve) => setTimeout(resolve, 200))

    // The delivery core starts here (its first use builds it), as the restarted daemon.
    await eventually("the entry settled", async () => ((await d.run(outboxState(leftInDoubt))) === "delivered" ? true : undefined), { timeoutMs: 15_000, intervalMs: 50 })
    const event = (await d.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.scoreStream.map((s) => s["left"])).toEqual([0])
    const requests = (await d.control.requests({ pathPrefix: "/public/" })).map((r) => `${r.method} ${r.path}`)
    expect(requests).toEqual([
      "POST /public/places/court-1/score",
      "GET /public/places/court-1/activeEventKey",
      `GET /public/events/${eventKey}`
    ])
  }, 30_000)
})

const outboxState = (id: number) =>
  Effect.gen(function*() {
    const item = yield* (yield* wholeOutbox).get(id)
    return Option.isSome(item) ? item.value.state : "missing"
  })
