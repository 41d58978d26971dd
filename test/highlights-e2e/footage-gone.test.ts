import { afterEach, describe, expect, it } from "vitest"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { resources } from "../scoreboard/harness.ts"
import type { BasketballBoard } from "../scoreboard/matches/basketball-quarter.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { sleep } from "../support/sleep.ts"
import { acceptedClicks, acceptedScores, clickRequests, outboxByKind, outboxItems, untilLogged } from "./support.ts"

/**
 * An outage outlasts a pending auto-highlight's footage: it is settled as skipped and never sent,
 * while the score backlog is delivered after the outage and a highlight made after it is sent.
 * The rule's window reaches 54 s back, so its footage (a minute, counted back from its arrival)
 * is gone 6 s after the change instead of a minute later.
 */

const beforeSeconds = 54
const goneAfterMs = 60_000 - beforeSeconds * 1000
const outageMs = goneAfterMs + 6_000
const board = (home: number, away: number): BasketballBoard => ({ clock: "05:00", home, away, period: 1 })

describe("an auto-highlight whose footage is gone before the service is back", () => {
  const res = resources()
  afterEach(() => res.release())

  it("is skipped, not sent; the backlog is delivered and a later auto-highlight is sent", async () => {
    const console = daktronicsBasketball()
    const { bridge, writer } = await startPtyBridge(res, "basketball", console as never, {
      place: {
        autoHighlights: [{ rule: "score", atLeast: 3, beforeSeconds, afterSeconds: 2 }],
        // A short hold: the auto is tried (and fails) during the outage, as a backlog would be.
        clicks: { mergeSeconds: 1 }
      }
    })
    const show = async (home: number, away: number) => {
      writer.write(console.encode(board(home, away)))
      // Apart by more than daktronics-rtd's settle window: each board is a change of its own.
      await sleep(150)
    }
    await show(0, 0)
    await eventually("the first entry at the simulator", async () => ((await acceptedScores(bridge)).length === 1 ? true : undefined))

    await bridge.control.injectFault({ kind: "status", status: 503, durationMs: outageMs })
    const outageEnds = Date.now() + outageMs
    await show(3, 0)
    await show(5, 0)
    await show(7, 0)
    const [queued] = await untilLogged(bridge, "score auto-highlight #")
    const staleId = Number(/#(\d+) queued/u.exec(queued!)![1])

    // Settled during the outage, once its footage is gone: nothing is waiting for the service's return.
    const stale = await eventually("the stale auto-highlight to be settled", async () => {
      const item = (await outboxItems(bridge)).find((i) => i.id === staleId)
      return item?.state === "pending" ? undefined : item
    }, { timeoutMs: outageMs + 5_000, intervalMs: 100 })
    expect({ state: stale.state, result: stale.result }).toEqual({ state: "missed", result: { skipped: true } })
    expect(stale.lastError).toMatch(/^skipped/u)
    const [logged] = await untilLogged(bridge, "skipped, not sent")
    expect(logged).toContain(`click #${staleId}`)

    await sleep(outageEnds + 200 - Date.now())
    await show(10, 0)
    const [fresh] = await eventually("the auto-highlight made after the outage at the simulator", async () => {
      const clicks = await acceptedClicks(bridge)
      return clicks.length > 0 ? clicks : undefined
    }, { timeoutMs: 10_000, intervalMs: 50 })
    await eventually("the backlog to drain", async () => ((await acceptedScores(bridge)).length === 5 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 })

    // Every entry once; after the outage the court caught up newest first (live first, see
    // score-lanes.ts), so they are compared in the order of their stamps, not of their arrival.
    const scores = (await acceptedScores(bridge)).map((s) => s.body).sort((a, b) => Number(a["timeStamp"]) - Number(b["timeStamp"]))
    expect(scores.map((s) => [s["left"], s["right"]])).toEqual([[0, 0], [3, 0], [5, 0], [7, 0], [10, 0]])
    expect(fresh!.metadata).toMatchObject({ source: "auto", rule: "score", team: "home" })
    expect(fresh!.timeStamp).toBe(scores[4]!.timeStamp)
    // The stale one reached the service only as the outage's refused attempts, never after it.
    const staleClickId = (stale.payload as { metadata: { clickId: string } }).metadata.clickId
    const staleRequests = (await clickRequests(bridge)).filter((c) => c.metadata.clickId === staleClickId)
    expect(staleRequests.filter((c) => c.status !== 503 || c.at >= outageEnds), "requests for the stale auto-highlight outside the outage").toEqual([])
    expect((await acceptedClicks(bridge)).map((c) => c.metadata.clickId)).toEqual([fresh!.metadata.clickId])
    expect(await outboxByKind(bridge)).toEqual({ "score/delivered": 5, "auto/missed": 1, "auto/delivered": 1 })
  }, 45_000)
})
