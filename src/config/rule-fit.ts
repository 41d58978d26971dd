import type { AutoRule } from "../domain/auto-rule.ts"
import { autoRuleNames, type RuleFamily, ruleFamilies, ruleFamily } from "../domain/rule-catalog.ts"

interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: string
}

/** The rules that make sense for a sport, in catalog order. */
export const rulesFor = (sport: string): ReadonlyArray<string> => {
  const family = ruleFamily(sport)
  return autoRuleNames.filter((name) => ruleFamilies[name].includes(family))
}

// The option each family counts its sets with, to point a misplaced one at the right one.
const setCount: Readonly<Record<RuleFamily, string>> = {
  tennis: "its sets are counted in games (gamesPerSet)",
  volleyball: "its sets are counted in points (pointsPerSet, decidingSetPoints)",
  generic: "it has no sets",
  race: "it has no sets"
}

/**
 * Whether each rule fits the sport it will watch (paths relative to the list): the rule itself,
 * a jump bigger than one point where points come one at a time, a set counted the other way.
 */
export const ruleFitIssues = (rules: ReadonlyArray<AutoRule>, sport: string): Array<Issue> => {
  const family = ruleFamily(sport)
  return rules.flatMap((rule, index): Array<Issue> => {
    if (!ruleFamilies[rule.rule].includes(family)) {
      return [{ path: [index, "rule"], issue: `${rule.rule} does not fit ${sport}: rules for ${sport} are ${rulesFor(sport).join(", ")}` }]
    }
    return [
      // A dual meet's team score goes up by a finish's points (5, 3, 1): jumps, as in a generic sport.
      ...(rule.atLeast !== undefined && rule.atLeast > 1 && family !== "generic" && family !== "race"
        ? [{ path: [index, "atLeast"], issue: `a jump of ${rule.atLeast} never happens in ${sport}: its score goes up one point at a time — leave atLeast out` }]
        : []),
      ...(rule.gamesPerSet !== undefined && family !== "tennis"
        ? [{ path: [index, "gamesPerSet"], issue: `is for tennis and padel; ${sport} does not count games: ${setCount[family]}` }]
        : []),
      ...(["pointsPerSet", "decidingSetPoints"] as const).filter((key) => rule[key] !== undefined && family !== "volleyball").map((key) => ({
        path: [index, key],
        issue: `is for volleyball and beach volleyball; in ${sport} ${setCount[family]}`
      }))
    ]
  })
}
