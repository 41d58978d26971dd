import { describe, expect, it } from "vitest"
import { checkClickBody } from "../../src/delivery/item-payloads.ts"
import type { Finish } from "../../src/domain/race.ts"
import { autoClickBody, autoClickIdOf } from "../../src/highlights/auto-click.ts"
import type { AutoHighlight } from "../../src/highlights/score-moments.ts"

const point = (at: number): AutoHighlight => ({ at, rule: "tiebreak-point", rules: ["tiebreak-point"], team: "home", window: { beforeSeconds: 15, afterSeconds: 5 } })
const entry = (home: number, away: number, timeStamp = 1_000) => ({ timeStamp, left: 6, right: 6, tieBreak: [home, away] }) as never

describe("an auto-highlight's click id", () => {
  it("is the same for the same change judged twice (a retried store): stored once", () => {
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).toBe(autoClickIdOf("court-1", point(1_000), entry(3, 2)))
  })

  it("differs for two changes read in one chunk, with one stamp: neither is taken for the other", () => {
    // A stalled reader finds two tie-break points' frames in one read: both entries get its time.
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-1", point(1_000), entry(4, 2)))
  })

  it("differs by place and by rule", () => {
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-2", point(1_000), entry(3, 2)))
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-1", { ...point(1_000), rule: "set-point" }, entry(3, 2)))
  })
})

const touch = 1_800_000_028_910
const finish: Finish = { lane: 4, place: 1, time: "28.91", timeMs: 28_910, event: 12, heat: 3, at: touch }
const finished = (f: Finish): AutoHighlight => ({ at: f.at, rule: "finish", rules: ["finish"], team: "none", window: { beforeSeconds: 10, afterSeconds: 6 }, finish: f })
const dualMeet = { timeStamp: touch - 60_000, left: 41, right: 37, period: 0 }

describe("a finish's click", () => {
  const overlay = { templateSource: "https://cdn.example.com/pool/finish.html", values: { lane: "Lane 4" }, widthPercentOfWidth: 30 }

  it("is stamped at the touch with the finish window, carries the swimmer's finish in its metadata and no score", () => {
    const body = autoClickBody({ highlight: finished(finish), clickId: "abc", score: dualMeet, overlay })
    expect(body).toEqual({
      timeStamp: touch,
      startTime: touch - 10_000,
      endTime: touch + 6_000,
      overlays: [overlay],
      metadata: { clickId: "abc", team: "none", source: "auto", rule: "finish", finish: { lane: 4, place: 1, time: "28.91", event: 12, heat: 3 } }
    })
    // The outbox's schema takes it as it is.
    expect(checkClickBody(body)._tag).toBe("Success")
  })

  it("leaves event and heat out when the board showed none, and keeps a swimmer's name short", () => {
    const { event: _e, heat: _h, ...bare } = finish
    expect(autoClickBody({ highlight: finished(bare), clickId: "abc", score: undefined, overlay: undefined }).metadata.finish)
      .toEqual({ lane: 4, place: 1, time: "28.91" })
    const named = autoClickBody({ highlight: finished({ ...finish, swimmer: "x".repeat(200) }), clickId: "abc", score: undefined, overlay: undefined })
    expect(named.metadata.finish?.swimmer).toBe("x".repeat(64))
  })

  it("has one id for the same finish, whatever score the place shows; another for another lane, place, time or race", () => {
    const id = autoClickIdOf("pool", finished(finish), undefined)
    expect(autoClickIdOf("pool", finished({ ...finish }), dualMeet)).toBe(id)
    for (const other of [{ lane: 5 }, { place: 2 }, { time: "28.92", timeMs: 28_920 }, { heat: 4 }, { at: touch + 600_000 }]) {
      expect(autoClickIdOf("pool", finished({ ...finish, ...other }), undefined), JSON.stringify(other)).not.toBe(id)
    }
    expect(autoClickIdOf("pool-2", finished(finish), undefined)).not.toBe(id)
  })
})
