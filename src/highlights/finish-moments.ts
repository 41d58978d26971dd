import type { AutoRule } from "../domain/auto-rule.ts"
import type { Finish } from "../domain/race.ts"
import { defaultRuleWindow } from "../domain/rule-catalog.ts"
import type { AutoHighlight } from "./score-moments.ts"

/** The last place a `finish` rule takes: `winner` is place 1, `places` the first N, neither every place. */
const lastPlaceOf = (rule: AutoRule): number => (rule.winner === true ? 1 : rule.places ?? Number.POSITIVE_INFINITY)

/**
 * The highlights a place's `finish` rule makes of the finishes the race tracker settled
 * (race-finishes.ts): one per finish within the rule's places, about no team, stamped at the
 * touch, with the rule's window. None without a `finish` rule. Pure, so the daemon and `replay`
 * select alike.
 */
export const finishHighlights = (
  finishes: ReadonlyArray<Finish>,
  rules: ReadonlyArray<AutoRule>,
  sport: string
): ReadonlyArray<AutoHighlight> => {
  const rule = rules.find((candidate) => candidate.rule === "finish")
  if (rule === undefined) return []
  const window = rule.beforeSeconds !== undefined && rule.afterSeconds !== undefined
    ? { beforeSeconds: rule.beforeSeconds, afterSeconds: rule.afterSeconds }
    : defaultRuleWindow("finish", sport)
  const lastPlace = lastPlaceOf(rule)
  return finishes.filter((finish) => finish.place <= lastPlace).map((finish) => ({
    // The outbox and the service take whole ms; a start estimated between two stamps is not one.
    at: Math.round(finish.at),
    rule: "finish",
    rules: ["finish"],
    team: "none",
    window,
    finish
  }))
}

/** The rules that judge score changes (score-moments.ts): every configured one but `finish`. */
export const scoreRules = (rules: ReadonlyArray<AutoRule>): ReadonlyArray<AutoRule> => rules.filter((rule) => rule.rule !== "finish")
