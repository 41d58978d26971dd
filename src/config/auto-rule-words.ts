import type { AutoRule } from "../domain/auto-rule.ts"
import {
  defaultBestOf,
  defaultDecidingSetPoints,
  defaultGamesPerSet,
  defaultPointsPerSet,
  defaultRuleWindow,
  ruleFamily,
  ruleMeaning
} from "../domain/rule-catalog.ts"
import { setRules } from "./auto-highlights.ts"

/** `score atLeast 3`: the rule as a venue would name it in conversation. */
export const ruleLabel = (rule: AutoRule): string => `${rule.rule}${rule.atLeast === undefined ? "" : ` atLeast ${rule.atLeast}`}`

// score-moments.ts makes period-end highlights about neither team, finish-moments.ts finish ones; every other rule's are about the team it names.
export const isTeamless = (rule: AutoRule): boolean => rule.rule === "period-end" || rule.rule === "finish"

const teamWords = (rule: AutoRule): string =>
  isTeamless(rule) ? "about no team" : rule.team === undefined ? "either team" : `${rule.team} only`

const windowWords = (rule: AutoRule, sport: string): string => {
  if (rule.beforeSeconds !== undefined && rule.afterSeconds !== undefined) {
    return `${rule.beforeSeconds} s before to ${rule.afterSeconds} s after (its own)`
  }
  const { beforeSeconds, afterSeconds } = defaultRuleWindow(rule.rule, sport)
  return `${beforeSeconds} s before to ${afterSeconds} s after (${sport} default)`
}

const option = (given: number | undefined, fallback: number, words: (n: number) => string): string =>
  given === undefined ? `${words(fallback)} (default)` : words(given)

// The format the set and match rules count with, so a venue sees what "match point" will mean.
const formatWords = (rule: AutoRule, sport: string): ReadonlyArray<string> => {
  if (!setRules.includes(rule.rule)) return []
  const bestOf = option(rule.bestOf, defaultBestOf(sport), (n) => `best of ${n}`)
  switch (ruleFamily(sport)) {
    case "tennis":
      return [bestOf, option(rule.gamesPerSet, defaultGamesPerSet, (n) => `${n} games a set`)]
    case "volleyball":
      return [
        bestOf,
        option(rule.pointsPerSet, defaultPointsPerSet(sport), (n) => `${n} points a set`),
        option(rule.decidingSetPoints, defaultDecidingSetPoints, (n) => `${n} in the deciding set`)
      ]
    case "generic":
    case "race":
      return [bestOf]
  }
}

// Which finishes make a click, so a venue sees whether the whole heat or the podium is filmed.
const placesWords = (rule: AutoRule): ReadonlyArray<string> =>
  rule.rule !== "finish"
    ? []
    : [rule.winner === true ? "the winner only" : rule.places === undefined ? "every place" : `the first ${rule.places} places`]

/** One rule in words for `check`: what it selects, for whom, with how much footage, counting how. */
export const describeAutoRule = (rule: AutoRule, sport: string): string =>
  [`${ruleLabel(rule)} — ${ruleMeaning[rule.rule]}`, teamWords(rule), windowWords(rule, sport), ...formatWords(rule, sport), ...placesWords(rule)].join("; ")

const heldWords = (mergeSeconds: number): string =>
  mergeSeconds === 0
    ? "sent at once, never merged with a press"
    : `held ${mergeSeconds} s before sending; a press within ${mergeSeconds} s replaces one`

/** How auto-highlights and presses meet at a place: a finish is its swimmer's own clip, never held or merged. */
export const describeMerge = (mergeSeconds: number, rules: ReadonlyArray<AutoRule> = []): string => {
  const finishes = rules.some((rule) => rule.rule === "finish")
  if (finishes && rules.every((rule) => rule.rule === "finish")) return "finishes sent at once, never merged with a press"
  return `${heldWords(mergeSeconds)}${finishes ? "; finishes sent at once, never merged" : ""}`
}
