import { Result, Schema } from "effect"
import { apiSports } from "../../adapters/shared/api-sports.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { type AutoRuleName, autoRuleNames, ruleMeaning } from "../domain/rule-catalog.ts"
import { bothOrNeither, WindowSeconds } from "./clip-window.ts"
import { formatPath, issueProblems } from "./problems.ts"
import { ruleFitIssues } from "./rule-fit.ts"

/** The rules that count sets and matches, and so take the match format. */
export const setRules: ReadonlyArray<AutoRuleName> = ["set-won", "set-point", "match-point"]
export const formatKeys = ["bestOf", "gamesPerSet", "pointsPerSet", "decidingSetPoints"] as const

const wholeBetween = (minimum: number, maximum: number, what: string) =>
  Schema.Int.check(Schema.isBetween({ minimum, maximum }, { message: `must be a whole number from ${minimum} to ${maximum} (${what})` }))

// An even number of sets could end level: no format plays one.
const BestOf = Schema.Int.check(Schema.makeFilter(
  (sets: number) => sets >= 1 && sets <= 7 && sets % 2 === 1 ? undefined : "must be an odd number of sets from 1 to 7 (best of 3, best of 5)",
  { toJsonSchema: () => ({ minimum: 1, maximum: 7 }) }
))

const ruleNames = autoRuleNames.join(", ")

/** The options only `finish` takes: which places make a click. */
export const finishKeys = ["places", "winner"] as const

// The detector makes period-end and finish highlights about neither team, so a team filter would pass none of them.
const teamlessWhy: Partial<Record<AutoRuleName, string>> = {
  "period-end": "a period end is about neither team",
  "finish": "a finish is a swimmer's, about neither team"
}

const optionsFitRule = Schema.makeFilter<AutoRule>((rule) => [
  ...(rule.atLeast !== undefined && rule.rule !== "score"
    ? [{ path: ["atLeast"], issue: `only for rule: score (the smallest jump that counts); ${rule.rule} takes no atLeast — leave it out` }]
    : []),
  ...(setRules.includes(rule.rule) ? [] : formatKeys.filter((key) => rule[key] !== undefined).map((key) => ({
    path: [key],
    issue: `only for rules set-won, set-point and match-point (the match format they count with); ${rule.rule} does not use it — leave it out`
  }))),
  ...(rule.rule === "finish" ? [] : finishKeys.filter((key) => rule[key] !== undefined).map((key) => ({
    path: [key],
    issue: `only for rule: finish (which places make a click); ${rule.rule} does not use it — leave it out`
  }))),
  ...(rule.places !== undefined && rule.winner !== undefined
    ? [{ path: ["winner"], issue: "give places or winner, not both — winner: true is places: 1" }]
    : []),
  ...(teamlessWhy[rule.rule] !== undefined && rule.team !== undefined
    ? [{ path: ["team"], issue: `${teamlessWhy[rule.rule]}, so no highlight would pass this filter — leave team out` }]
    : [])
], {
  toJsonSchema: () => ({
    allOf: [
      { if: { properties: { rule: { not: { const: "score" } } } }, then: { not: { required: ["atLeast"] } } },
      { if: { properties: { rule: { not: { enum: setRules } } } }, then: { not: { anyOf: formatKeys.map((key) => ({ required: [key] })) } } },
      { if: { properties: { rule: { not: { const: "finish" } } } }, then: { not: { anyOf: finishKeys.map((key) => ({ required: [key] })) } } },
      { not: { required: [...finishKeys] } },
      { if: { properties: { rule: { enum: Object.keys(teamlessWhy) } } }, then: { not: { required: ["team"] } } }
    ]
  })
})

/** One `autoHighlights:` entry: a rule that turns score changes (or a race's finishes) into clicks by itself. */
export const AutoHighlight = Schema.Struct({
  rule: Schema.Literals(autoRuleNames).annotate({
    description: `Which moments make a highlight: ${autoRuleNames.map((name) => `${name}: ${ruleMeaning[name]}`).join("; ")}. `
      + "Only the rules that fit the place's sport are allowed."
  }),
  team: Schema.optionalKey(Schema.Literals(["home", "away"]).annotate({
    description: "Only highlights about this team (home | away); omitted: either team. Not with period-end or finish (about neither team)."
  })),
  atLeast: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "must be a whole number of points, 1 or more" })).annotate({
    description: "rule: score only — the smallest jump that counts (3: three-pointers only). Above 1 only for sports scored in jumps (not tennis, padel or volleyball)."
  })),
  beforeSeconds: Schema.optionalKey(WindowSeconds("Seconds of footage before the score change (0–60). With afterSeconds; neither = the rule's default for the sport.")),
  afterSeconds: Schema.optionalKey(WindowSeconds("Seconds of footage after the score change (0–60). With beforeSeconds.")),
  bestOf: Schema.optionalKey(BestOf.annotate({
    description: "set-won, set-point, match-point: sets in the match (1, 3, 5 or 7). Default: 3 (tennis, padel, beach volleyball), 5 (volleyball)."
  })),
  gamesPerSet: Schema.optionalKey(wholeBetween(1, 10, "6 in tennis, 4 in short sets").annotate({
    description: "Tennis and padel; set-won, set-point, match-point: games that win a set (by two, tie-break at games-all). Default 6."
  })),
  pointsPerSet: Schema.optionalKey(wholeBetween(5, 50, "25 in volleyball, 21 in beach volleyball").annotate({
    description: "Volleyball and beach volleyball; set-won, set-point, match-point: points that win a set (by two). Default 25 (beach 21)."
  })),
  decidingSetPoints: Schema.optionalKey(wholeBetween(5, 50, "15 in volleyball").annotate({
    description: "Volleyball and beach volleyball; set-won, set-point, match-point: points that win the deciding set. Default 15."
  })),
  places: Schema.optionalKey(wholeBetween(1, 12, "a pool has at most 12 lanes").annotate({
    description: "rule: finish only — only the first N places make a click (3: the podium). Omitted: every finish."
  })),
  winner: Schema.optionalKey(Schema.Boolean.annotate({
    description: "rule: finish only — true: only the winner (place 1) makes a click, as places: 1."
  }))
}).annotate({ description: "An auto-highlight rule: a click made from the score itself, or a race's finish (metadata.source: auto)." })
  .check(bothOrNeither("the rule's default window for the sport"), optionsFitRule)

const describeFilter = (rule: AutoRule) => (teamlessWhy[rule.rule] === undefined ? `${rule.rule} for ${rule.team ?? "either team"}` : rule.rule)

// Two entries for one rule and team would disagree on the window and options of the same highlights.
// A rule about no team is listed once at all (its team is a config error of its own).
const oneEntryPerRuleAndTeam = Schema.makeFilter((rules: ReadonlyArray<AutoRule>) =>
  rules.flatMap((rule, index) => {
    const earlier = rules.findIndex((other, o) => o < index && other.rule === rule.rule && other.team === rule.team)
    return earlier === -1 ? [] : [{
      path: [index, "rule"],
      issue: `${describeFilter(rule)} is listed twice (also [${earlier}]): keep one entry per rule and team`
    }]
  })
)

export const AutoHighlights = Schema.Array(AutoHighlight).annotate({
  description: `Highlights made from the score itself, without a press; each is a click with metadata.source: auto. Rules: ${ruleNames}. `
    + "Needs the place's sport: and scoreboard:."
}).check(oneEntryPerRuleAndTeam)

// Checked against its type here, so a change to either is caught where they are defined.
const decodesToAutoRule: Schema.Codec<ReadonlyArray<AutoRule>, ReadonlyArray<unknown>> = AutoHighlights
void decodesToAutoRule

const fitsSport = (sport: string) => Schema.makeFilter((rules: ReadonlyArray<AutoRule>) => ruleFitIssues(rules, sport))

const isSport = (sport: string): boolean => (apiSports as ReadonlyArray<string>).includes(sport)

const strict = { errors: "all", onExcessProperty: "error", reportInput: true } as const

/**
 * Rules given on a command line (`replay --auto-highlights '<JSON>'`): decoded and checked for
 * the sport as a place's `autoHighlights:` is, every problem on one plain line.
 */
export const parseAutoRules = (json: string, sport: string): Result.Result<ReadonlyArray<AutoRule>, string> => {
  if (!isSport(sport)) return Result.fail(`unknown sport "${sport}" (sports: ${apiSports.join(", ")})`)
  const value = Result.try({ try: () => JSON.parse(json) as unknown, catch: (error) => (error as Error).message })
  if (value._tag === "Failure") return Result.fail(`auto-highlight rules are not JSON (${value.failure}); give a list such as [{"rule":"score"}]`)
  const decoded = Schema.decodeUnknownResult(AutoHighlights.check(fitsSport(sport)))(value.success, strict)
  if (decoded._tag === "Success") return Result.succeed(decoded.success)
  const problems = issueProblems(decoded.failure.issue).map((problem) =>
    problem.path.length === 0 ? problem.message : `${formatPath(problem.path)}: ${problem.message}`
  )
  return Result.fail(`auto-highlight rules: ${problems.join("; ")}`)
}
