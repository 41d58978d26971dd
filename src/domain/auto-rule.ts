import type { AutoRuleName } from "./rule-catalog.ts"

/** One configured auto-highlight rule, as the config decodes it (see src/config/auto-highlights.ts). */
export interface AutoRule {
  readonly rule: AutoRuleName
  /** Only highlights about this team (never on `period-end` or `finish`, which are about neither). */
  readonly team?: "home" | "away"
  /** `score` only: the smallest jump that counts (a three-pointer is 3). */
  readonly atLeast?: number
  /** Given together, or neither for the rule's default window (rule-catalog.ts). */
  readonly beforeSeconds?: number
  readonly afterSeconds?: number
  /** Set and match rules: the match format they count with. */
  readonly bestOf?: number
  readonly gamesPerSet?: number
  readonly pointsPerSet?: number
  readonly decidingSetPoints?: number
  /** `finish` only: only the first N places (1–12) make a click. */
  readonly places?: number
  /** `finish` only: only the winner (place 1) makes a click; as `places: 1`. */
  readonly winner?: boolean
}
