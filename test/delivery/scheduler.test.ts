import { afterEach, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { OutboxWriteError } from "../../src/delivery/outbox-errors.ts"
import { genericEntry, startDelivery, waitFor } from "./delivery-harness.ts"

type Delivery = Awaited<ReturnType<typeof startDelivery>>
let delivery: Delivery | undefined
afterEach(async () => {
  await delivery?.close()
  delivery = undefined
})

const scorePosts = async (d: Delivery) =>
  (await d.control.requests()).filter((r) => r.method === "POST" && r.path.endsWith("/score"))

describe("scheduler against the simulator's rate limit", () => {
  it("drains a 60-entry backlog in order without a single 429", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    const base = Date.now()
    for (let i = 0; i < 60; i++) await d.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await waitFor(async () => (await scorePosts(d)).filter((r) => r.status === 200).length === 60, 25_000, "60 deliveries")
    const requests = await d.control.requests()
    expect(requests.filter((r) => r.status === 429)).toEqual([])
    // Per place, the service saw the entries in capture order.
    for (const place of ["court-1", "court-2"]) {
      const stamps = requests.filter((r) => r.path.includes(place)).map((r) => (r.body as { timeStamp: number }).timeStamp)
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
      expect(stamps).toHaveLength(30)
    }
    // And no two requests closer than the limit allows (5/s → 200 ms; the simulator grants 2% grace).
    const gaps = requests.slice(1).map((r, i) => r.at - requests[i]!.at)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(196)
  }, 40_000)

  it("backs off from a 429 burst, then delivers everything", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "status", status: 429, count: 3 })
    const base = Date.now()
    for (let i = 0; i < 8; i++) await d.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await waitFor(async () => (await scorePosts(d)).filter((r) => r.status === 200).length === 8, 30_000, "8 deliveries after the burst")
    const requests = await scorePosts(d)
    expect(requests.filter((r) => r.status === 429)).toHaveLength(3)
    // Back-off grows: 1 s, 2 s, 4 s, each jittered by ±20%.
    const pauses = requests.slice(0, 3).map((r, i) => requests[i + 1]!.at - r.at)
    expect(pauses[0]).toBeGreaterThanOrEqual(780)
    expect(pauses[1]).toBeGreaterThanOrEqual(1_580)
    expect(pauses[2]).toBeGreaterThanOrEqual(3_180)
    const delivered = requests.filter((r) => r.status === 200).map((r) => (r.body as { left: number }).left)
    expect(delivered).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  }, 40_000)

  it("sends a click ahead of a 30-entry score backlog, within one rate slot", async () => {
    const d = (delivery = await startDelivery(2))
    const { eventKey } = await d.control.startEvent("court-1")
    const base = Date.now()
    for (let i = 0; i < 30; i++) await d.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    // Let the backlog start draining so the click really arrives behind it.
    await waitFor(async () => (await scorePosts(d)).length >= 2, 5_000, "the backlog to start")
    const pressedAt = Date.now()
    await d.append({ place: "court-1", kind: "click", eventKey, payload: { timeStamp: pressedAt, metadata: { clickId: "c-1" } }, createdAt: pressedAt })
    const seenAtPress = Math.max(0, ...(await d.control.requests()).map((r) => r.seq))
    await waitFor(async () => (await d.control.requests()).some((r) => r.path.endsWith("/clicks")), 5_000, "the click")
    const requests = await d.control.requests()
    const click = requests.find((r) => r.path.endsWith("/clicks"))!
    expect(click.status).toBe(200)
    expect(click.body).toMatchObject({ timeStamp: pressedAt, metadata: { clickId: "c-1" } })
    // Within one slot: at most the entry already granted when the press came lands before the click.
    // Counted in requests, not milliseconds, so a loaded machine cannot fail it.
    const scoresAfterPress = requests.filter((r) => r.path.endsWith("/score") && r.seq > seenAtPress && r.seq < click.seq)
    expect(scoresAfterPress.length).toBeLessThanOrEqual(1)
    expect(requests.filter((r) => r.path.endsWith("/score") && r.seq < click.seq).length).toBeLessThan(30)
  }, 40_000)
})

describe("scheduler under service failures", () => {
  it("retries 5xx and resets with back-off until delivered, without reordering", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "status", status: 503, count: 2 })
    const base = Date.now()
    for (let i = 0; i < 3; i++) await d.append({ place: "court-1", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await waitFor(async () => (await scorePosts(d)).filter((r) => r.status === 200).length === 3, 20_000, "3 deliveries")
    const requests = await scorePosts(d)
    expect(requests.map((r) => r.status)).toEqual([503, 503, 200, 200, 200])
    expect(requests.filter((r) => r.status === 200).map((r) => (r.body as { left: number }).left)).toEqual([0, 1, 2])
    // The second attempt waited about the first back-off step (1 s, jittered).
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(700)
  }, 30_000)

  it("a click in back-off holds no press behind it: the next click of the place goes in the next slot", async () => {
    const d = (delivery = await startDelivery(5))
    const { eventKey } = await d.control.startEvent("court-1")
    const clicksPath = `/public/events/${eventKey}/clicks`
    await d.control.injectFault({ kind: "status", status: 503, count: 1, pathPrefix: clicksPath })
    const pressedAt = Date.now()
    const press = (clickId: string, at: number) =>
      d.append({ place: "court-1", kind: "click", eventKey, payload: { timeStamp: at, metadata: { clickId } }, dedupeKey: clickId, createdAt: at })
    await press("refused", pressedAt)
    await waitFor(async () => (await d.control.requests({ status: 503 })).length === 1, 5_000, "the first click refused")
    await press("behind", pressedAt + 1)
    await waitFor(async () => (await d.control.requests({ pathPrefix: clicksPath, status: 200 })).length === 2, 10_000, "both clicks delivered")
    const accepted = (await d.control.requests({ pathPrefix: clicksPath, status: 200 })).map((r) => (r.body as { metadata: { clickId: string } }).metadata.clickId)
    // The refused click is in its back-off when the press behind it comes: that one goes at once
    // (and its success ends the refused click's back-off).
    expect(accepted).toEqual(["behind", "refused"])
  }, 30_000)

  it("pauses every lane on a 401, probes the token, and resumes when it works again", async () => {
    const d = (delivery = await startDelivery(5))
    await d.control.startEvent("court-1")
    await d.control.injectFault({ kind: "status", status: 401, count: 1, pathPrefix: "/public/places" })
    const base = Date.now()
    for (let i = 0; i < 4; i++) await d.append({ place: i % 2 === 0 ? "court-1" : "court-2", kind: "score", payload: genericEntry(i, base), createdAt: base + i })
    await waitFor(async () => (await scorePosts(d)).filter((r) => r.status === 200).length === 4, 20_000, "4 deliveries after the probe")
    const requests = await d.control.requests()
    const rejected = requests.findIndex((r) => r.status === 401)
    const probe = requests.findIndex((r) => r.path === "/public/sports")
    // While suspended only the probe went out; it came after the 401 and before any other score.
    expect(rejected).toBeGreaterThanOrEqual(0)
    expect(probe).toBeGreaterThan(rejected)
    expect(requests.slice(rejected + 1, probe).filter((r) => r.path.endsWith("/score"))).toEqual([])
    expect(requests[probe]!.status).toBe(200)
  }, 30_000)
})

describe("scheduler when the outbox cannot write", () => {
  it("an in-doubt mark that dies (the disk failed) holds its item, not a tight resend loop, and nothing is sent", async () => {
    let marks = 0
    const d = (delivery = await startDelivery(5, {
      wrapOutbox: (outbox) => ({
        ...outbox,
        markSending: () =>
          Effect.suspend(() => {
            marks++
            return Effect.fail(new OutboxWriteError({ path: "outbox.sqlite", reason: "the disk failed to store outbox writes (EIO)" }))
          })
      })
    }))
    await d.control.startEvent("court-1")
    const base = Date.now()
    await d.append({ place: "court-1", kind: "score", payload: genericEntry(0, base), createdAt: base })
    await waitFor(async () => marks > 0, 5_000, "the first in-doubt mark")
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    // Restarted at once, the delivery tried again thousands of times in 1.5 s.
    expect(marks).toBe(1)
    expect(await scorePosts(d)).toEqual([])
  }, 20_000)
})
