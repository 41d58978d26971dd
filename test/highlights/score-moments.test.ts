import { describe, expect, it } from "vitest"
import type { Side } from "../../src/domain/reading.ts"
import type { Pair } from "../../src/domain/score-entry.ts"
import type { AutoRule } from "../../src/domain/auto-rule.ts"
import { clockSeconds } from "../../src/highlights/period-clock.ts"
import { ScoreMoments } from "../../src/highlights/score-moments.ts"
import type { ScoreState } from "../../src/highlights/score-state.ts"

const rules = (...names: ReadonlyArray<AutoRule["rule"] | AutoRule>): ReadonlyArray<AutoRule> =>
  names.map((r) => (typeof r === "string" ? { rule: r } : r))

/** Feeds generic scores one by one; returns "<index>:<rule>:<team>" for each highlight made. */
const generic = (sport: string, rs: ReadonlyArray<AutoRule>, scores: ReadonlyArray<readonly [number, number, number?]>) => {
  const moments = new ScoreMoments(sport, rs)
  return scores.flatMap(([home, away, period], i) =>
    moments.onEntry({ at: 1000 * i, home, away, period: period ?? 1 }).map((h) => `${i}:${h.rules.join("+")}:${h.team}`)
  )
}

interface TennisStep {
  readonly sets: ReadonlyArray<Pair>
  readonly points: Pair
  readonly serve?: Side
  readonly tieBreak?: boolean
}

const tennisState = (step: TennisStep, at: number): ScoreState => {
  const current = step.sets.at(-1)!
  return {
    at, home: current[0], away: current[1], period: step.sets.length, sets: step.sets, points: step.points,
    ...(step.tieBreak === undefined ? {} : { tieBreak: step.tieBreak }), ...(step.serve === undefined ? {} : { serve: step.serve })
  }
}

const tennis = (rs: ReadonlyArray<AutoRule>, steps: ReadonlyArray<TennisStep>, sport = "tennis") => {
  const moments = new ScoreMoments(sport, rs)
  return steps.flatMap((step, i) => moments.onEntry(tennisState(step, 1000 * i)).map((h) => `${i}:${h.rules.join("+")}:${h.team}`))
}

const volleyball = (rs: ReadonlyArray<AutoRule>, steps: ReadonlyArray<ReadonlyArray<Pair>>, sport = "volleyball") => {
  const moments = new ScoreMoments(sport, rs)
  return steps.flatMap((sets, i) => {
    const current = sets.at(-1)!
    return moments.onEntry({ at: 1000 * i, home: current[0], away: current[1], period: sets.length, sets }).map((h) => `${i}:${h.rules.join("+")}:${h.team}`)
  })
}

describe("any-sport rules on a basketball game", () => {
  it("score selects every basket; atLeast: 3 only the three-pointers, for the team that scored", () => {
    const game: Array<[number, number]> = [[0, 0], [2, 0], [2, 3], [3, 3], [6, 3], [6, 5]]
    expect(generic("basketball", rules("score"), game)).toEqual(["1:score:home", "2:score:away", "3:score:home", "4:score:home", "5:score:away"])
    expect(generic("basketball", rules({ rule: "score", atLeast: 3 }), game)).toEqual(["2:score:away", "4:score:home"])
    expect(generic("basketball", rules({ rule: "score", team: "home" }), game)).toEqual(["1:score:home", "3:score:home", "4:score:home"])
  })

  it("lead-change follows who led last, across a tie; tie needs a team to draw level", () => {
    const game: Array<[number, number]> = [[0, 0], [2, 0], [2, 3], [3, 3], [5, 3], [5, 5], [5, 7], [5, 9]]
    expect(generic("basketball", rules("lead-change"), game)).toEqual(["2:lead-change:away", "4:lead-change:home", "6:lead-change:away"])
    expect(generic("basketball", rules("tie"), game)).toEqual(["3:tie:home", "5:tie:away"])
  })

  it("one change makes one highlight: the first listed rule's team and window, every rule that agreed named", () => {
    const moments = new ScoreMoments("basketball", rules({ rule: "score", atLeast: 3, beforeSeconds: 9, afterSeconds: 2 }, "lead-change"))
    moments.onEntry({ at: 0, home: 2, away: 0, period: 1 })
    const [made, ...rest] = moments.onEntry({ at: 5000, home: 2, away: 3, period: 1 })
    expect(rest).toEqual([])
    expect(made).toEqual({ at: 5000, rule: "score", rules: ["score", "lead-change"], team: "away", window: { beforeSeconds: 9, afterSeconds: 2 } })
  })

  it("a new match (the score back to 0–0) starts with nobody ahead: its first basket is no lead change", () => {
    expect(generic("basketball", rules("lead-change"), [[80, 70], [0, 0], [0, 2], [3, 2]])).toEqual(["3:lead-change:home"])
  })

  it("the first entry (nothing before it) and a corrected-down score make none", () => {
    expect(generic("basketball", rules("score", "tie"), [[10, 10], [8, 10], [8, 10]])).toEqual([])
  })

  it("default windows fit the sport: short for a basket, longer for a goal", () => {
    const basket = new ScoreMoments("basketball", rules("score"))
    basket.onEntry({ at: 0, home: 0, away: 0, period: 1 })
    expect(basket.onEntry({ at: 1, home: 2, away: 0, period: 1 })[0]!.window).toEqual({ beforeSeconds: 12, afterSeconds: 4 })
    const goal = new ScoreMoments("hockey", rules("score"))
    goal.onEntry({ at: 0, home: 0, away: 0, period: 1 })
    expect(goal.onEntry({ at: 1, home: 1, away: 0, period: 1 })[0]!.window).toEqual({ beforeSeconds: 20, afterSeconds: 10 })
  })
})

describe("period-end", () => {
  const reading = (receivedAt: number, clock: string, period = 1) => ({ receivedAt, clock, period })

  it("a countdown reaching zero ends the period once, stamped with that reading; the next period's entry adds nothing", () => {
    const moments = new ScoreMoments("basketball", rules("period-end"))
    moments.onEntry({ at: 0, home: 20, away: 18, period: 1 })
    expect(moments.onReading(reading(9, "0:12"))).toEqual([])
    expect(moments.onReading(reading(10, "0:02"))).toEqual([])
    expect(moments.onReading(reading(11, "1.0"))).toEqual([])
    expect(moments.onReading(reading(12, "0.0")).map((h) => [h.at, h.rule, h.team])).toEqual([[12, "period-end", "none"]])
    expect(moments.onReading(reading(13, "0.0"))).toEqual([])
    expect(moments.onEntry({ at: 20, home: 20, away: 18, period: 2 })).toEqual([])
    // Second quarter: its own end.
    moments.onReading(reading(29, "10:00", 2))
    moments.onReading(reading(30, "0:04", 2))
    expect(moments.onReading(reading(31, "0:00", 2))).toHaveLength(1)
  })

  it("a clock counting up and reset to zero ends nothing; such a board ends a period when the period goes up", () => {
    const moments = new ScoreMoments("hockey", rules("period-end"))
    moments.onEntry({ at: 0, home: 1, away: 0, period: 1 })
    expect(moments.onReading(reading(10, "19:59"))).toEqual([])
    expect(moments.onReading(reading(11, "0:00"))).toEqual([])
    // Reset while going up, even close to zero: not a countdown.
    for (const [i, clock] of ["0:28", "0:29", "0:30", "0:00"].entries()) expect(moments.onReading(reading(12 + i, clock))).toEqual([])
    expect(moments.onEntry({ at: 20, home: 1, away: 0, period: 2 }).map((h) => [h.at, h.rule])).toEqual([[20, "period-end"]])
    expect(moments.onEntry({ at: 30, home: 2, away: 0, period: 2 })).toEqual([])
  })

  it("reads board clocks", () => {
    expect([clockSeconds("12:34"), clockSeconds(" 45.6"), clockSeconds("0:00"), clockSeconds("1:02:03"), clockSeconds("--:--")])
      .toEqual([754, 45.6, 0, 3723, undefined])
  })
})

describe("tennis rules", () => {
  it("game-won and break: a break is a game won by the receiver; unknown server, no break", () => {
    const steps: Array<TennisStep> = [
      { sets: [[2, 2]], points: [0, 0], serve: "home" },
      { sets: [[2, 2]], points: [3, 1], serve: "home" },
      { sets: [[3, 2]], points: [0, 0], serve: "away" }, // hold
      { sets: [[3, 2]], points: [3, 2], serve: "away" },
      { sets: [[4, 2]], points: [0, 0], serve: "home" }, // break by home
      { sets: [[4, 2]], points: [1, 3] },
      { sets: [[4, 3]], points: [0, 0] } // server unknown
    ]
    expect(tennis(rules("game-won"), steps)).toEqual(["2:game-won:home", "4:game-won:home", "6:game-won:away"])
    expect(tennis(rules("break"), steps)).toEqual(["4:break:home"])
  })

  it("set point, set won, a new set: set point fires when a team gets one, again after deuce", () => {
    const steps: Array<TennisStep> = [
      { sets: [[5, 4]], points: [2, 2] },
      { sets: [[5, 4]], points: [3, 2] }, // set point home
      { sets: [[5, 4]], points: [3, 3] }, // saved
      { sets: [[5, 4]], points: [4, 3] }, // set point again
      { sets: [[6, 4], [0, 0]], points: [0, 0] } // set won
    ]
    expect(tennis(rules("set-point", "set-won", "period-end"), steps)).toEqual([
      "1:set-point:home",
      "3:set-point:home",
      "4:set-won+period-end:home"
    ])
  })

  it("tie-break: every point in it, and the set won 7–6; points flagged or at 6–6", () => {
    const steps: Array<TennisStep> = [
      { sets: [[6, 5]], points: [0, 3] },
      { sets: [[6, 6]], points: [0, 0] }, // into the tie-break: not a tie-break point
      { sets: [[6, 6]], points: [1, 0] },
      { sets: [[6, 6]], points: [1, 1] },
      { sets: [[6, 6]], points: [5, 5] }, // (points skipped by the test)
      { sets: [[6, 6]], points: [6, 5] },
      { sets: [[7, 6], [0, 0]], points: [0, 0] }
    ]
    expect(tennis(rules("tiebreak-point"), steps)).toEqual(["2:tiebreak-point:home", "3:tiebreak-point:away", "5:tiebreak-point:home", "6:tiebreak-point:home"])
    expect(tennis(rules("set-point", "set-won"), steps)).toEqual(["5:set-point:home", "6:set-won:home"])
  })

  it("match point: a set point in the set that wins the match (best of 3 by default, bestOf: 5 on request)", () => {
    const steps: Array<TennisStep> = [
      { sets: [[6, 3], [5, 2]], points: [2, 0] },
      { sets: [[6, 3], [5, 2]], points: [3, 0] }
    ]
    expect(tennis(rules("match-point", "set-point"), steps)).toEqual(["1:match-point+set-point:home"])
    expect(tennis(rules({ rule: "match-point", bestOf: 5 }), steps)).toEqual([])
  })

  it("score on tennis is a point won, an advantage lost included", () => {
    const steps: Array<TennisStep> = [
      { sets: [[0, 0]], points: [3, 3] },
      { sets: [[0, 0]], points: [3, 4] },
      { sets: [[0, 0]], points: [3, 3] },
      { sets: [[1, 0]], points: [0, 0] }
    ]
    expect(tennis(rules("score"), steps)).toEqual(["1:score:away", "2:score:home", "3:score:home"])
  })
})

describe("volleyball rules", () => {
  it("set point, set won, a point in the next set; lead-change stays within a set", () => {
    const steps: Array<Array<Pair>> = [
      [[23, 22]],
      [[24, 22]], // set point home
      [[24, 23]],
      [[25, 23]], // set won
      [[25, 23], [0, 1]],
      [[25, 23], [2, 1]],
      [[25, 23], [2, 3]]
    ]
    expect(volleyball(rules("set-point", "set-won"), steps)).toEqual(["1:set-point:home", "3:set-won:home"])
    expect(volleyball(rules("score"), steps).slice(-3)).toEqual(["4:score:away", "5:score:home", "6:score:away"])
    expect(volleyball(rules("lead-change"), steps)).toEqual(["5:lead-change:home", "6:lead-change:away"])
  })

  it("match point at two sets up; the deciding set goes to 15; beach volleyball to 21, best of 3", () => {
    expect(volleyball(rules("match-point"), [[[25, 20], [25, 18], [23, 20]], [[25, 20], [25, 18], [24, 20]]])).toEqual(["1:match-point:home"])
    expect(volleyball(rules("set-won"), [[[25, 20], [20, 25], [25, 20], [20, 25], [14, 12]], [[25, 20], [20, 25], [25, 20], [20, 25], [15, 12]]]))
      .toEqual(["1:set-won:home"])
    expect(volleyball(rules("set-won"), [[[20, 19]], [[21, 19]]], "beachvolleyball")).toEqual(["1:set-won:home"])
  })

  it("a board that opens the next set without the last one reaching 25 still ends it (another format)", () => {
    expect(volleyball(rules("set-won"), [[[14, 12]], [[15, 12], [0, 0]]])).toEqual(["1:set-won:home"])
  })
})
