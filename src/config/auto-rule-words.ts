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

// score-moments.ts makes period-end highlights about neither team; every other rule's are about the team it names.
export const isTeamless = (rule: AutoRule): boolean => rule.rule === "period-end"

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
      return [bestOf]
  }
}

/** One rule in words for `check`: what it selects, for whom, with how much footage, counting how. */
export const describeAutoRule = (rule: AutoRule, sport: string): string =>
  [`${ruleLabel(rule)} — ${ruleMeaning[rule.rule]}`, teamWords(rule), windowWords(rule, sport), ...formatWords(rule, sport)].join("; ")

/** How auto-highlights and presses meet at a place. */
export const describeMerge = (mergeSeconds: number): string =>
  mergeSeconds === 0
    ? "sent at once, never merged with a press"
    : `held ${mergeSeconds} s before sending; a press within ${mergeSeconds} s replaces one`
