import { describe, expect, it } from "vitest"
import type { AutoRule } from "../../src/domain/auto-rule.ts"
import type { Finish } from "../../src/domain/race.ts"
import { finishHighlights, scoreRules } from "../../src/highlights/finish-moments.ts"

const start = 1_800_000_000_000

/** A heat of four lanes as the tracker reports it: touch = start + time. */
const heat: ReadonlyArray<Finish> = [
  { lane: 4, place: 1, time: "28.91", timeMs: 28_910, event: 12, heat: 3, at: start + 28_910 },
  { lane: 5, place: 2, time: "29.07", timeMs: 29_070, event: 12, heat: 3, at: start + 29_070 },
  { lane: 3, place: 3, time: "29.40", timeMs: 29_400, event: 12, heat: 3, at: start + 29_400 },
  { lane: 6, place: 4, time: "31.02", timeMs: 31_020, event: 12, heat: 3, at: start + 31_020 }
]

const selected = (rules: ReadonlyArray<AutoRule>) => finishHighlights(heat, rules, "swimming").map((h) => h.finish?.lane)

describe("finish highlights", () => {
  it("make one click per finish, about no team, stamped at the touch, with the 10 s / 6 s window of a touch", () => {
    const highlights = finishHighlights(heat, [{ rule: "finish" }], "swimming")
    expect(highlights).toEqual(heat.map((finish) => ({
      at: finish.at, rule: "finish", rules: ["finish"], team: "none", window: { beforeSeconds: 10, afterSeconds: 6 }, finish
    })))
  })

  it("are stamped in whole ms, as the outbox and the service take them", () => {
    const [highlight] = finishHighlights([{ ...heat[0]!, at: start + 28_910.6667 }], [{ rule: "finish" }], "swimming")
    expect(highlight?.at).toBe(start + 28_911)
  })

  it("take only the first N places, or only the winner", () => {
    expect(selected([{ rule: "finish", places: 2 }])).toEqual([4, 5])
    expect(selected([{ rule: "finish", places: 12 }])).toEqual([4, 5, 3, 6])
    expect(selected([{ rule: "finish", winner: true }])).toEqual([4])
    // winner: false is no filter at all.
    expect(selected([{ rule: "finish", winner: false }])).toEqual([4, 5, 3, 6])
  })

  it("take the rule's own window, and make nothing without a finish rule", () => {
    const [first] = finishHighlights(heat, [{ rule: "score" }, { rule: "finish", beforeSeconds: 6, afterSeconds: 3 }], "swimming")
    expect(first?.window).toEqual({ beforeSeconds: 6, afterSeconds: 3 })
    expect(finishHighlights(heat, [{ rule: "score" }, { rule: "lead-change" }], "swimming")).toEqual([])
    expect(finishHighlights([], [{ rule: "finish" }], "swimming")).toEqual([])
  })

  it("leave the score rules to the score: a dual meet's team scores are judged without the finish rule", () => {
    expect(scoreRules([{ rule: "finish", places: 3 }, { rule: "score", atLeast: 5 }, { rule: "lead-change" }]))
      .toEqual([{ rule: "score", atLeast: 5 }, { rule: "lead-change" }])
  })
})
