import { Effect } from "effect"
import { afterEach, expect, it } from "vitest"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { genericEntry, startDelivery } from "./delivery-harness.ts"

let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

it("a backlog that waited out an outage lands in the event live when it was captured, not the next match", async () => {
  const d = (delivery = await startDelivery(10, { backlogAfterMs: 1_000 }))
  const first = await d.control.startEvent("court-1", { externalID: "match-1" })
  const base = Date.now()
  // Learned from the place-score answer: match-1 is live on court-1.
  await d.append({ place: "court-1", kind: "score", payload: genericEntry(0, base), createdAt: base })
  await eventually("the first entry", async () => ((await d.control.requests()).some((r) => r.status === 200) ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })

  await d.control.injectFault({ kind: "reset", durationMs: 2_500 })
  const known = await d.run(Effect.gen(function*() {
    return yield* (yield* ActiveEvents).current("court-1")
  }))
  expect(known?.eventKey).toBe(first.eventKey)
  for (let i = 1; i <= 3; i++) {
    await d.append({ place: "court-1", kind: "score", eventKey: known!.eventKey, payload: genericEntry(i, base), createdAt: Date.now() })
  }
  // During the outage match-1 ends and match-2 starts on the same court.
  await d.control.closeEvent("court-1")
  const second = await d.control.startEvent("court-1", { externalID: "match-2" })

  await eventually("the backlog in match-1", async () => {
    const state = await d.control.state()
    return state.events.find((e) => e.key === first.eventKey)!.scoreStream.length === 4 ? true : undefined
  }, { timeoutMs: 20_000, intervalMs: 50 })
  const state = await d.control.state()
  expect(state.events.find((e) => e.key === first.eventKey)!.scoreStream.map((s) => s["left"])).toEqual([0, 1, 2, 3])
  expect(state.events.find((e) => e.key === second.eventKey)!.scoreStream).toEqual([])
  const backlog = (await d.control.requests()).filter((r) => r.method === "POST" && r.status === 200 && r.path.startsWith("/public/events/"))
  expect(backlog.map((r) => (r.body as { timeStamp: number }).timeStamp)).toEqual([base + 1, base + 2, base + 3])
}, 30_000)
