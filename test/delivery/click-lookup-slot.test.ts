import { afterEach, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { appendPressWithUnknownEvent, startDelivery } from "./delivery-harness.ts"

let delivery: Awaited<ReturnType<typeof startDelivery>> | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

// Found by the benchmark: a press made before the place's live event was known looked the event
// up and posted the click in the same rate slot — at 1 request/s with a burst of 1, a 429 on
// every retry until the click was missed.
it("a click whose event was unknown at press time spends one slot on the look-up and another on the post", async () => {
  const d = (delivery = await startDelivery(1))
  const { eventKey } = await d.control.startEvent("court-1")
  await appendPressWithUnknownEvent(d, "lookup-slot")
  const clicksPath = `/public/events/${eventKey}/clicks`
  await eventually("the click", async () => ((await d.control.requests({ pathPrefix: clicksPath, status: 200 })).length === 1 ? true : undefined), { timeoutMs: 8_000, intervalMs: 50 })
  const requests = await d.control.requests({ pathPrefix: "/public/" })
  expect(requests.filter((r) => r.status === 429)).toEqual([])
  const lookup = requests.find((r) => r.path === "/public/places/court-1/activeEventKey")!
  const click = requests.find((r) => r.path === clicksPath)!
  expect(click.at - lookup.at).toBeGreaterThanOrEqual(950)
}, 20_000)
