import { sportKind } from "./sport-kind.ts"

/**
 * Auto-highlight rules: which score changes make a click by themselves, for which sports, and
 * the window of footage each gets by default. The detector (score-moments.ts), the config
 * checks, `check`, `overlay-preview`, `replay` and the timeline all read this one table.
 */
export const autoRuleNames = [
  "score",
  "lead-change",
  "tie",
  "period-end",
  "game-won",
  "break",
  "set-won",
  "tiebreak-point",
  "set-point",
  "match-point",
  "finish"
] as const
export type AutoRuleName = typeof autoRuleNames[number]

/**
 * How a sport is scored, as the rules see it. Padel is scored like tennis (its score entries
 * stay generic, but the board shows sets, games and points); beach volleyball like volleyball.
 * Swimming is a race: its moments are finishes read from a timing console's board, and the team
 * scores of a dual meet (when the console's score channels are configured) are judged as generic.
 */
export type RuleFamily = "tennis" | "volleyball" | "generic" | "race"

export const ruleFamily = (sport: string): RuleFamily =>
  sport === "tennis" || sport === "padel"
    ? "tennis"
    : sportKind(sport) === "volleyball" ? "volleyball" : sport === "swimming" ? "race" : "generic"

const everyFamily: ReadonlyArray<RuleFamily> = ["generic", "volleyball", "tennis", "race"]

/** The families each rule makes sense for; any other sport is a config error. */
export const ruleFamilies: Readonly<Record<AutoRuleName, ReadonlyArray<RuleFamily>>> = {
  // Generic: a team's score. Volleyball: a point of the current set. Tennis: a point won (a game won included).
  "score": everyFamily,
  // Within the current set in volleyball; a tennis game score has no lead to change hands.
  "lead-change": ["generic", "volleyball", "race"],
  "tie": ["generic", "volleyball", "race"],
  // The end of a period, quarter or half; in set sports, the end of a set.
  "period-end": everyFamily,
  "game-won": ["tennis"],
  "break": ["tennis"],
  "set-won": ["tennis", "volleyball"],
  "tiebreak-point": ["tennis"],
  "set-point": ["tennis", "volleyball"],
  "match-point": ["tennis", "volleyball"],
  // A swimmer's touch, read from the lanes of a timing console's board.
  "finish": ["race"]
}

/** What each rule selects, in the words `check` and README use. */
export const ruleMeaning: Readonly<Record<AutoRuleName, string>> = {
  "score": "a team's score went up (atLeast: N for a jump of N or more, e.g. a three-pointer)",
  "lead-change": "the team that leads is now the other one",
  "tie": "the trailing team drew level",
  "period-end": "a period ended: the clock reached zero (or, on boards without a clock, the period number went up); in set sports a set ended",
  "game-won": "a game was won",
  "break": "a game was won by the receiver (needs a board that shows who serves)",
  "set-won": "a set was won",
  "tiebreak-point": "a point was played in a tie-break",
  "set-point": "a team can win the set with the next point",
  "match-point": "a team can win the match with the next point",
  "finish": "a swimmer touched the wall: one click per finish, stamped at the touch (the race's start plus the finish time), with lane, place and time"
}

export interface RuleWindow {
  readonly beforeSeconds: number
  readonly afterSeconds: number
}

const w = (beforeSeconds: number, afterSeconds: number): RuleWindow => ({ beforeSeconds, afterSeconds })

// A goal has a long build-up and a celebration; a basket or a rally is short.
const goalSports = new Set([
  "football", "soccer", "hockey", "unihockey", "handball", "futsal", "waterpolo", "lacrosse", "ballhockey", "dekhockey", "rugby"
])

/**
 * The sport's default window for a rule: the play that led to it before, the reaction after.
 * Set and match moments get a longer tail (the celebration, the handshake).
 */
export const defaultRuleWindow = (rule: AutoRuleName, sport: string): RuleWindow => {
  switch (ruleFamily(sport)) {
    case "tennis":
      switch (rule) {
        case "break":
          return w(25, 8)
        case "set-won":
        case "period-end":
          return w(25, 15)
        case "game-won":
        case "set-point":
        case "match-point":
          return w(20, 5)
        default:
          // A point: the rally before it.
          return w(20, 4)
      }
    case "volleyball":
      return rule === "set-won" || rule === "period-end" ? w(20, 10) : w(15, 5)
    case "race":
      // The last strokes and the touch before, the swimmer looking up at the board after.
      // A dual meet's team scores: as a generic sport's (swimming is no goal sport).
      return rule === "finish" ? w(10, 6) : w(15, 5)
    case "generic":
      if (rule === "period-end") return w(15, 5)
      if (sport === "basketball") return w(12, 4)
      return goalSports.has(sport) ? w(20, 10) : w(15, 5)
  }
}

/** Match format defaults the set and match rules count with, per family (sport for the volleyball variants). */
export const defaultBestOf = (sport: string): number =>
  ruleFamily(sport) === "volleyball" ? (sport === "beachvolleyball" ? 3 : 5) : 3

export const defaultGamesPerSet = 6

export const defaultPointsPerSet = (sport: string): number => (sport === "beachvolleyball" ? 21 : 25)

export const defaultDecidingSetPoints = 15
