import type { Finish } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"
import type { Pair } from "../domain/score-entry.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { hasMatchPoint, hasSetPoint, inTieBreak, type MatchFormat, matchFormatOf, setWinner, type Team } from "./match-format.ts"
import { PeriodClock } from "./period-clock.ts"
import { type AutoRuleName, defaultRuleWindow, type RuleFamily, ruleFamily, type RuleWindow } from "../domain/rule-catalog.ts"
import type { ScoreState } from "./score-state.ts"

/** A highlight the score (or a race) selected: when, about whom, and which configured rules chose it. */
export interface AutoHighlight {
  /** The entry's stamp (the reading's, for a countdown reaching zero; the touch, for a finish). */
  readonly at: number
  /** The first configured rule that selected it: its window and team are the click's. */
  readonly rule: AutoRuleName
  /** Every configured rule that selected it; one change makes one click, however many rules agree. */
  readonly rules: ReadonlyArray<AutoRuleName>
  readonly team: "home" | "away" | "none"
  readonly window: RuleWindow
  /** A `finish` highlight's swimmer (finish-moments.ts): team "none", `at` the touch. */
  readonly finish?: Finish
}

/** What a rule says of one change: the team it is about, "none", or nothing selected. */
type Verdict = Team | "none" | undefined

const sideOf = (team: Team | "none"): "home" | "away" | "none" => (team === "none" ? "none" : team === 0 ? "home" : "away")
const teamOf = (side: "home" | "away"): Team => (side === "home" ? 0 : 1)

const total = (sets: ReadonlyArray<Pair> | undefined, team: Team): number => (sets ?? []).reduce((sum, set) => sum + set[team], 0)

/** The one team whose count went up, by how much; undefined when none or both did. */
const riser = (before: Pair, after: Pair): { readonly team: Team; readonly by: number } | undefined => {
  const up0 = after[0] - before[0]
  const up1 = after[1] - before[1]
  if (up0 > 0 && up1 <= 0) return { team: 0, by: up0 }
  if (up1 > 0 && up0 <= 0) return { team: 1, by: up1 }
  return undefined
}

const leaderOf = (state: ScoreState): Team | undefined =>
  state.home > state.away ? 0 : state.away > state.home ? 1 : undefined

/**
 * Turns one place's settled score changes into auto-highlights by its configured rules.
 * Compares each entry with the one before it, and remembers across entries only what a rule
 * needs beyond that pair: who led last (a lead changes hands across a tie) and which period
 * has already ended. Pure and driven by the states it is given, so the daemon and `replay`
 * select alike.
 */
export class ScoreMoments {
  private previous: ScoreState | undefined
  private lastLeader: Team | undefined
  private periodEnded: number | undefined
  private readonly clock = new PeriodClock()
  private readonly family: Exclude<RuleFamily, "race">
  private readonly sport: string
  private readonly rules: ReadonlyArray<AutoRule>

  constructor(
    sport: string,
    rules: ReadonlyArray<AutoRule>,
    /** The last entry stored before this run, so the first change after a restart is judged against it. */
    seed?: ScoreState
  ) {
    this.sport = sport
    this.rules = rules
    const family = ruleFamily(sport)
    // A dual meet's team scores are judged as a generic sport's; its finishes are not score changes.
    this.family = family === "race" ? "generic" : family
    this.previous = seed
    this.lastLeader = seed === undefined ? undefined : leaderOf(seed)
  }

  /** A settled entry has been stored: the highlights its change selects (at most one). */
  onEntry(next: ScoreState): ReadonlyArray<AutoHighlight> {
    const judged = this.judge(next)
    judged.accept()
    return judged.highlights
  }

  /**
   * The highlights an entry's change would select, without taking the entry as the new score
   * until `accept` is called: an entry that fails to be stored is offered again, and must be
   * judged against the same score as the first time.
   */
  judge(next: ScoreState): { readonly highlights: ReadonlyArray<AutoHighlight>; readonly accept: () => void } {
    const before = this.previous
    if (before === undefined) {
      return { highlights: [], accept: () => {
        this.previous = next
        this.lastLeader = leaderOf(next)
      } }
    }
    const verdicts = this.rules.map((rule) => ({ rule, verdict: this.verdict(rule, before, next) }))
    return { highlights: this.combine(next.at, verdicts), accept: () => {
      this.previous = next
      this.remember(before, next)
    } }
  }

  /** A reading: a countdown clock reaching zero ends the period (`period-end`), once per period. */
  onReading(reading: Reading): ReadonlyArray<AutoHighlight> {
    if (!this.clock.zeroReached(reading.clock) || this.family !== "generic") return []
    const period = reading.period ?? this.previous?.period ?? 0
    if (this.periodEnded === period) return []
    const verdicts = this.rules.map((rule) => ({ rule, verdict: rule.rule === "period-end" ? "none" as const : undefined }))
    const made = this.combine(reading.receivedAt, verdicts)
    if (made.length > 0) this.periodEnded = period
    return made
  }

  private combine(at: number, verdicts: ReadonlyArray<{ readonly rule: AutoRule; readonly verdict: Verdict }>): ReadonlyArray<AutoHighlight> {
    const chosen = verdicts.filter(({ rule, verdict }) =>
      verdict !== undefined && (rule.team === undefined || (verdict !== "none" && teamOf(rule.team) === verdict))
    )
    const first = chosen[0]
    if (first === undefined) return []
    const { rule, verdict } = first
    return [{
      at,
      rule: rule.rule,
      rules: [...new Set(chosen.map((c) => c.rule.rule))],
      team: sideOf(verdict!),
      window: rule.beforeSeconds !== undefined && rule.afterSeconds !== undefined
        ? { beforeSeconds: rule.beforeSeconds, afterSeconds: rule.afterSeconds }
        : defaultRuleWindow(rule.rule, this.sport)
    }]
  }

  private remember(before: ScoreState, next: ScoreState): void {
    // Volleyball leads are the current set's: a new set starts with nobody ahead.
    if (this.family === "volleyball" && (next.sets?.length ?? 0) !== (before.sets?.length ?? 0)) this.lastLeader = undefined
    // A score that went down is a correction or a new match: who leads now is all that counts.
    const wentDown = next.home < before.home || next.away < before.away
    this.lastLeader = wentDown ? leaderOf(next) : leaderOf(next) ?? this.lastLeader
    if (this.family === "generic" && next.period > before.period) this.periodEnded = this.periodEnded === before.period ? this.periodEnded : before.period
  }

  private verdict(rule: AutoRule, before: ScoreState, next: ScoreState): Verdict {
    const format = matchFormatOf(this.sport, rule)
    switch (rule.rule) {
      case "score": {
        const up = this.scorer(before, next)
        return up !== undefined && up.by >= (rule.atLeast ?? 1) ? up.team : undefined
      }
      case "lead-change": {
        const sameSet = this.family !== "volleyball" || (next.sets?.length ?? 0) === (before.sets?.length ?? 0)
        const leader = leaderOf(next)
        const last = sameSet ? this.lastLeader : undefined
        return leader !== undefined && last !== undefined && leader !== last ? leader : undefined
      }
      case "tie": {
        const sameSet = this.family !== "volleyball" || (next.sets?.length ?? 0) === (before.sets?.length ?? 0)
        if (!sameSet || next.home !== next.away || next.home === 0 || before.home === before.away) return undefined
        return riser([before.home, before.away], [next.home, next.away])?.team
      }
      case "period-end":
        if (this.family === "generic") {
          return next.period > before.period && before.period >= 1 && this.periodEnded !== before.period ? "none" : undefined
        }
        return this.setFinished(format, before, next) === undefined ? undefined : "none"
      case "game-won":
        return this.gameWinner(before, next)
      case "break": {
        const winner = this.gameWinner(before, next)
        const current = before.sets?.at(-1)
        if (winner === undefined || before.serve === undefined || current === undefined) return undefined
        // Serve alternates within a tie-break: winning it is no break.
        if (inTieBreak(format, current, before.tieBreak)) return undefined
        return teamOf(before.serve) !== winner ? winner : undefined
      }
      case "set-won":
        return this.setFinished(format, before, next)
      case "tiebreak-point": {
        const current = before.sets?.at(-1)
        if (current === undefined || !inTieBreak(format, current, before.tieBreak)) return undefined
        return this.pointWinner(before, next)
      }
      case "set-point":
        return this.newlyAt(hasSetPoint, format, before, next)
      case "match-point":
        return this.newlyAt(hasMatchPoint, format, before, next)
      case "finish":
        // Made from a race's boards (finish-moments.ts), never from a score change.
        return undefined
    }
  }

  /** The team that now has a set (match) point it did not have on the entry before. */
  private newlyAt(has: typeof hasSetPoint, format: MatchFormat, before: ScoreState, next: ScoreState): Verdict {
    if (next.sets === undefined) return undefined
    for (const team of [0, 1] as const) {
      if (!has(format, next.sets, next.points, next.tieBreak, team)) continue
      const had = before.sets !== undefined && has(format, before.sets, before.points, before.tieBreak, team)
      if (!had) return team
    }
    return undefined
  }

  /** Whose score went up, by how much: teams' scores, volleyball points over all sets, tennis points. */
  private scorer(before: ScoreState, next: ScoreState): { readonly team: Team; readonly by: number } | undefined {
    switch (this.family) {
      case "generic":
        return riser([before.home, before.away], [next.home, next.away])
      case "volleyball":
        return riser([total(before.sets, 0), total(before.sets, 1)], [total(next.sets, 0), total(next.sets, 1)])
      case "tennis": {
        const team = this.pointWinner(before, next)
        return team === undefined ? undefined : { team, by: 1 }
      }
    }
  }

  private gameWinner(before: ScoreState, next: ScoreState): Team | undefined {
    if (before.sets === undefined || next.sets === undefined) return undefined
    return riser([total(before.sets, 0), total(before.sets, 1)], [total(next.sets, 0), total(next.sets, 1)])?.team
  }

  /** Tennis: who won the point between two entries — a game, or a point within the game (losing an advantage counts for the other side). */
  private pointWinner(before: ScoreState, next: ScoreState): Team | undefined {
    const game = this.gameWinner(before, next)
    if (game !== undefined) return game
    if (before.points === undefined || next.points === undefined) return undefined
    const up = riser(before.points, next.points)
    if (up !== undefined) return up.team
    // Advantage lost: 40–AD becomes 40–40, the point went to the side that stayed.
    const down = riser(next.points, before.points)
    return down === undefined ? undefined : (1 - down.team) as Team
  }

  /** The winner of a set finished by this change (by the format, or by the board moving to a new set). */
  private setFinished(format: MatchFormat, before: ScoreState, next: ScoreState): Team | undefined {
    if (before.sets === undefined || next.sets === undefined) return undefined
    for (let index = 0; index < next.sets.length; index++) {
      const winner = setWinner(format, next.sets[index]!, index)
      const was = before.sets[index]
      if (winner !== undefined && (was === undefined || setWinner(format, was, index) === undefined)) {
        // A set the board opened without the old one reaching its target was already counted when it opened.
        if (was === undefined && index > 0 && before.sets.length === index) continue
        return winner
      }
    }
    // The board opened a new set though the last one did not reach the format's target (another format).
    if (next.sets.length > before.sets.length && before.sets.length > 0) {
      const index = before.sets.length - 1
      const finished = next.sets[index] ?? before.sets[index]!
      if (setWinner(format, before.sets[index]!, index) === undefined && setWinner(format, finished, index) === undefined) {
        return finished[0] > finished[1] ? 0 : finished[1] > finished[0] ? 1 : undefined
      }
    }
    return undefined
  }
}
