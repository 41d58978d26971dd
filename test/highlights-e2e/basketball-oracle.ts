import type { BasketballBoard } from "../scoreboard/matches/basketball-quarter.ts"
import type { Step } from "../scoreboard/matches/match.ts"

export interface ExpectedAuto {
  /** The step whose write made it. */
  readonly step: number
  readonly rule: string
  readonly rules: ReadonlyArray<string>
  readonly team: "home" | "away" | "none"
}

/**
 * The test's own reading of `score atLeast 3`, `lead-change`, `period-end` (in that order) on the
 * boards: a jump of 3 or more for one team; the leader differs from the last team that led (a tie
 * in between keeps the last leader); the clock first showing 0.0. One click per change, the first
 * rule's team.
 */
export const basketballAutos = (steps: ReadonlyArray<Step<BasketballBoard>>): Array<ExpectedAuto> => {
  const autos: Array<ExpectedAuto> = []
  let leader: "home" | "away" | undefined
  for (let step = 1; step < steps.length; step++) {
    const before = steps[step - 1]!.board
    const board = steps[step]!.board
    if (board.clock === "0.0" && before.clock !== "0.0") autos.push({ step, rule: "period-end", rules: ["period-end"], team: "none" })
    const agreed: Array<{ rule: string; team: "home" | "away" }> = []
    const homeUp = board.home - before.home
    const awayUp = board.away - before.away
    if (homeUp >= 3 && awayUp <= 0) agreed.push({ rule: "score", team: "home" })
    if (awayUp >= 3 && homeUp <= 0) agreed.push({ rule: "score", team: "away" })
    const now = board.home > board.away ? "home" : board.away > board.home ? "away" : undefined
    if (now !== undefined && leader !== undefined && now !== leader) agreed.push({ rule: "lead-change", team: now })
    if (now !== undefined) leader = now
    if (agreed.length > 0) autos.push({ step, rule: agreed[0]!.rule, rules: agreed.map((a) => a.rule), team: agreed[0]!.team })
  }
  return autos
}
