import type { ObservedField } from "./layout-observation.ts"
import { blockWidthOf, trimBlanks } from "./layout-readings.ts"
import { type Candidate, type KindStates, slice } from "./layout-states.ts"

/**
 * How the adapter reads a number in its range: `both`, blanks trimmed on both sides (Fair-Play,
 * lines); `left`, right-aligned, blanks on the left only (Stramatel, Daktronics).
 */
export type ScoreGrowth = "both" | "left"

/**
 * Widens a found range over bytes that were blank in every frame (leading zeros too, on the left) and
 * that no other field takes, up to what the field may come to show: scores of 100, `MMSS`.
 * With `both`, scores grow to the left first, then alternate, so ` 3 ` (12–14) reads 10 whichever way
 * the console aligns it; a clock read only in tenths (`SSt `) grows to the right, where its blank is.
 */
export const widened = (kind: KindStates, field: ObservedField, range: Candidate, taken: ReadonlyArray<Candidate>, tenthsOnly: boolean, growth: ScoreGrowth): Candidate => {
  const core = trimBlanks(slice(kind.states.at(-1)!.text, range) ?? "")
  const target = blockWidthOf(field, core)
  let { first, last } = range
  const free = (i: number) => !taken.some((t) => t.kind === kind.kind && t.first <= i && i <= t.last)
  const alternate = field !== "clock" && growth === "both"
  let leftFirst = !(field === "clock" && tenthsOnly)
  let stuck = 0
  while (last - first + 1 < target && stuck < 2) {
    const grew = leftFirst
      ? first - 1 >= 0 && kind.leading[first - 1] === true && free(first - 1) && (first--, true)
      : last + 1 < kind.blank.length && kind.blank[last + 1] === true && free(last + 1) && (last++, true)
    stuck = grew ? 0 : stuck + 1
    if (field !== "clock" && !alternate) {
      if (!grew) break
      continue
    }
    // Scores alternate sides; a clock keeps to its side while it can.
    if (alternate || !grew) leftFirst = !leftFirst
  }
  return { kind: kind.kind, first, last }
}
