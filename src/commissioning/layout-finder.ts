import { type Observation, type ObservedField, observedFields } from "./layout-observation.ts"
import { isPlausible, readsAs, trimBlanks, widthsOf } from "./layout-readings.ts"
import { type Candidate, type FrameState, type KindStates, kindStates, lastAtOrBefore, overlaps, same, slice, windowOf } from "./layout-states.ts"
import { type ScoreGrowth, widened } from "./layout-widen.ts"

export type { Candidate, FrameState } from "./layout-states.ts"
export type { ScoreGrowth } from "./layout-widen.ts"

/** What would tell a field's candidates apart. */
export interface Settle {
  /** Fields whose candidates share bytes with this one's: a moment where they differ settles it. */
  readonly sharedWith: ReadonlyArray<ObservedField>
  /** The field was noted with this one value at every moment. */
  readonly sameValue: string | undefined
  /** The first moment of the recording where the candidates show different things, and what each shows. */
  readonly differsAt: { readonly at: number; readonly shown: ReadonlyArray<string> } | undefined
}

export type NotFound =
  /** No frame at all had arrived by that moment. */
  | { readonly _tag: "no-frames"; readonly observation: Observation }
  /** No byte range of any frame read the noted value then. */
  | { readonly _tag: "nothing-reads"; readonly observation: Observation }
  /** Every other moment agrees on `without`: this one was probably mistyped. */
  | { readonly _tag: "one-off"; readonly observation: Observation; readonly without: Candidate }
  /** Each moment alone is read somewhere, but never by the same range. */
  | { readonly _tag: "no-common" }

export type Finding =
  | {
    readonly _tag: "found"
    readonly field: ObservedField
    /** The tightest range that reads every noted value. */
    readonly range: Candidate
    /** What the options block reads: `range` widened over bytes blank in every frame, for values still to come (10 and more). */
    readonly block: Candidate
    /** Noted with fewer than two different values: a byte that showed them by chance would pass too. */
    readonly weak: boolean
    /** Moments when the range changed within the second before: the technician may have read the old or the new value. */
    readonly uncertain: ReadonlyArray<Observation>
    /** Other ranges that showed the same all through the recording (copies). */
    readonly alsoIn: ReadonlyArray<Candidate>
  }
  | { readonly _tag: "ambiguous"; readonly field: ObservedField; readonly candidates: ReadonlyArray<Candidate>; readonly settle: Settle }
  | { readonly _tag: "not-found"; readonly field: ObservedField; readonly reason: NotFound }

/**
 * Look-back: a technician notes what the board shows a moment after it shows it, and types for a
 * few seconds; a range agrees with a moment when a frame current at any time in the look-back
 * before it reads the noted value. The clock runs while its value is typed: it looks back further.
 */
export const lookBackMs: Readonly<Record<ObservedField, number>> = { home: 3_000, away: 3_000, period: 3_000, clock: 15_000 }

/** A change this close before a moment makes that moment's reading uncertain. */
export const uncertainWithinMs = 1_000

interface Context {
  readonly kinds: ReadonlyArray<KindStates>
}

/** Whether a frame current around `observation` reads its noted value of `field` at `range`. */
const agrees = (kind: KindStates, field: ObservedField, observation: Observation, range: Candidate): boolean => {
  const value = observation.noted[field]!
  return windowOf(kind.states, observation.at, lookBackMs[field]).some((text) => {
    const part = slice(text, range)
    return part !== undefined && readsAs(field, value, part)
  })
}

/** Every range of `kind` that reads the field's noted value at each of `moments`. */
const agreeingIn = (kind: KindStates, field: ObservedField, moments: ReadonlyArray<Observation>): Array<Candidate> => {
  const [first, ...rest] = moments
  if (first === undefined) return []
  const { max, min } = widthsOf[field]
  const found: Array<Candidate> = []
  const seen = new Set<string>()
  for (const text of windowOf(kind.states, first.at, lookBackMs[field])) {
    for (let at = 0; at < text.length; at++) {
      for (let width = min; width <= max && at + width <= text.length; width++) {
        const key = `${at}-${width}`
        if (seen.has(key) || !readsAs(field, first.noted[field]!, text.slice(at, at + width))) continue
        seen.add(key)
        const range = { kind: kind.kind, first: at, last: at + width - 1 }
        if (rest.every((o) => agrees(kind, field, o, range))) found.push(range)
      }
    }
  }
  return found
}

/** `wider` is `narrower` plus bytes that padded it in every frame (blanks; leading zeros on the left). */
const isPaddedCopy = (kind: KindStates, wider: Candidate, narrower: Candidate): boolean => {
  if (wider.kind !== narrower.kind || same(wider, narrower) || wider.first > narrower.first || wider.last < narrower.last) return false
  for (let i = wider.first; i < narrower.first; i++) if (!kind.leading[i]) return false
  for (let i = narrower.last + 1; i <= wider.last; i++) if (!kind.blank[i]) return false
  return true
}

/** The ranges left once padded copies of tighter ones are dropped; among several, those that never read garbage. */
const tightest = (context: Context, field: ObservedField, ranges: ReadonlyArray<Candidate>): ReadonlyArray<Candidate> => {
  const kindOf = (c: Candidate) => context.kinds.find((k) => k.kind === c.kind)!
  const padded = ranges.filter((r) => !ranges.some((other) => isPaddedCopy(kindOf(r), r, other)))
  // A clock that read as noted both as `956` and as `0956` is the wider (the block reads MMSS anyway).
  const tight = field === "clock" ? padded.filter((r) => !padded.some((o) => o !== r && o.kind === r.kind && o.first <= r.first && o.last >= r.last)) : padded
  if (tight.length < 2) return tight
  const plausible = tight.filter((r) => kindOf(r).states.every((s) => isPlausible(field, slice(s.text, r) ?? "")))
  return plausible.length > 0 ? plausible : tight
}

const momentsOf = (observations: ReadonlyArray<Observation>, field: ObservedField) => observations.filter((o) => o.noted[field] !== undefined)

const agreeing = (context: Context, field: ObservedField, moments: ReadonlyArray<Observation>) =>
  context.kinds.flatMap((kind) => agreeingIn(kind, field, moments))

/** Why nothing reads the field: a moment with no frame yet, one no range reads, or one the others disagree with. */
const notFound = (context: Context, field: ObservedField, moments: ReadonlyArray<Observation>): NotFound => {
  for (const observation of moments) {
    if (context.kinds.every((k) => lastAtOrBefore(k.states, observation.at) < 0)) return { _tag: "no-frames", observation }
  }
  for (const observation of moments) {
    if (agreeing(context, field, [observation]).length === 0) return { _tag: "nothing-reads", observation }
  }
  if (moments.length > 2) {
    for (const observation of moments) {
      const without = tightest(context, field, agreeing(context, field, moments.filter((o) => o !== observation)))
      if (without.length === 1) return { _tag: "one-off", observation, without: without[0]! }
    }
  }
  return { _tag: "no-common" }
}

/**
 * The first moment of the recording where the candidates show different non-blank things for at
 * least a second (frames of two types arriving one after the other differ for an instant only).
 */
const firstDifference = (context: Context, candidates: ReadonlyArray<Candidate>): Settle["differsAt"] => {
  const kinds = context.kinds.filter((k) => candidates.some((c) => c.kind === k.kind))
  const events = kinds.flatMap((k) => k.states).sort((a, b) => a.at - b.at)
  const current = new Map<string, string>()
  let since: { readonly at: number; readonly shown: ReadonlyArray<string> } | undefined
  for (const [i, event] of events.entries()) {
    current.set(event.kind, event.text)
    if (events[i + 1]?.at === event.at) continue
    const shown = candidates.map((c) => {
      const text = current.get(c.kind)
      return text === undefined ? "" : trimBlanks(slice(text, c) ?? "")
    })
    const differ = shown.every((s) => s !== "") && new Set(shown).size > 1
    since = differ ? since ?? { at: event.at, shown } : undefined
    const until = events[i + 1]?.at ?? Infinity
    if (since !== undefined && until - since.at >= uncertainWithinMs) return since
  }
  return undefined
}

/** Moments when the range's text changed within the second before: the technician may have read either. */
const uncertainMoments = (kind: KindStates, range: Candidate, moments: ReadonlyArray<Observation>): ReadonlyArray<Observation> =>
  moments.filter((o) => {
    const last = lastAtOrBefore(kind.states, o.at)
    for (let i = last; i > 0 && kind.states[i]!.at > o.at - uncertainWithinMs; i--) {
      if (slice(kind.states[i]!.text, range) !== slice(kind.states[i - 1]!.text, range)) return true
    }
    return false
  })

/** A moment's noted fields, in a fixed order. */
export const notedFields = (observations: ReadonlyArray<Observation>): ReadonlyArray<ObservedField> =>
  observedFields.filter((f) => observations.some((o) => o.noted[f] !== undefined))

/**
 * Which byte ranges of the frames read what the technician noted at each moment: per field, the
 * tightest range that agrees with every moment, or the candidates left and what would tell them
 * apart, or why none does. Two fields never share bytes: a field found alone rules its bytes out
 * for the others.
 */
export const findLayout = (
  frames: ReadonlyArray<FrameState>,
  observations: ReadonlyArray<Observation>,
  growth: ScoreGrowth = "both"
): ReadonlyArray<Finding> => {
  const context: Context = { kinds: kindStates(frames) }
  const fields = notedFields(observations)
  const candidates = new Map<ObservedField, ReadonlyArray<Candidate>>(
    fields.map((field) => [field, tightest(context, field, agreeing(context, field, momentsOf(observations, field)))])
  )
  leaveBytesToTheFound(candidates, fields)
  const alsoIn = chooseAmongCopies(context, candidates, fields)
  return findingsOf(context, candidates, alsoIn, observations, growth)
}

type Candidates = Map<ObservedField, ReadonlyArray<Candidate>>

/** A field with one range left takes its bytes from the others, until nothing changes. */
const leaveBytesToTheFound = (candidates: Candidates, fields: ReadonlyArray<ObservedField>): void => {
  for (let changed = true; changed;) {
    changed = false
    for (const field of fields) {
      const mine = candidates.get(field)!
      if (mine.length !== 1) continue
      for (const other of fields) {
        if (other === field) continue
        const theirs = candidates.get(other)!
        const left = theirs.filter((c) => !overlaps(c, mine[0]!))
        if (left.length > 0 && left.length < theirs.length) {
          candidates.set(other, left)
          changed = true
        }
      }
    }
  }
}

/**
 * Copies that show the same all through the recording: the same bytes in frames of several types
 * (Stramatel's clock in the sport frame and in the individual-points frames), or a clock the
 * console sends in several places. Any one reads it: the score's frame type is chosen, then the
 * first. Two scores are never chosen between this way: only a moment where they differ tells.
 * Returns, per field so settled, the copies not chosen.
 */
const chooseAmongCopies = (context: Context, candidates: Candidates, fields: ReadonlyArray<ObservedField>): Map<ObservedField, ReadonlyArray<Candidate>> => {
  const alsoIn = new Map<ObservedField, ReadonlyArray<Candidate>>()
  const scoreKind = ["home", "away"].map((f) => candidates.get(f as ObservedField)).find((c) => c?.length === 1)?.[0]?.kind
  for (const field of fields) {
    const mine = candidates.get(field)!
    if (mine.length < 2) continue
    if (field !== "clock" && !mine.every((c) => c.first === mine[0]!.first && c.last === mine[0]!.last)) continue
    if (firstDifference(context, mine) !== undefined) continue
    const chosen = mine.find((c) => c.kind === scoreKind) ?? mine[0]!
    candidates.set(field, [chosen])
    alsoIn.set(field, mine.filter((c) => c !== chosen))
  }
  return alsoIn
}

/** Each noted field's finding: found (with the block it may widen to), ambiguous, or not found and why. */
const findingsOf = (
  context: Context,
  candidates: Candidates,
  alsoIn: Map<ObservedField, ReadonlyArray<Candidate>>,
  observations: ReadonlyArray<Observation>,
  growth: ScoreGrowth
): ReadonlyArray<Finding> => {
  const fields = [...candidates.keys()]
  const kindOf = (c: Candidate) => context.kinds.find((k) => k.kind === c.kind)!
  const unique = fields.filter((f) => candidates.get(f)!.length === 1)
  // Two fields left on the same bytes: neither can be trusted.
  const clash = (field: ObservedField) => unique.some((other) => other !== field && overlaps(candidates.get(other)![0]!, candidates.get(field)![0]!))
  const taken: Array<Candidate> = unique.filter((f) => !clash(f)).map((f) => candidates.get(f)![0]!)
  const tenthsOnly = momentsOf(observations, "clock").every((o) => !o.noted.clock!.includes(":"))

  return fields.map((field): Finding => {
    const moments = momentsOf(observations, field)
    const mine = candidates.get(field)!
    if (mine.length === 0) return { _tag: "not-found", field, reason: notFound(context, field, moments) }
    if (mine.length === 1 && !clash(field)) {
      const range = mine[0]!
      const block = widened(kindOf(range), field, range, taken.filter((t) => !same(t, range)), tenthsOnly, growth)
      taken.push(block)
      const uncertain = field === "clock" ? [] : uncertainMoments(kindOf(range), range, moments)
      const weak = new Set(moments.map((o) => o.noted[field])).size < 2
      return { _tag: "found", field, range, block, weak, uncertain, alsoIn: alsoIn.get(field) ?? [] }
    }
    const sharedWith = fields.filter((other) => other !== field && candidates.get(other)!.some((c) => mine.some((m) => overlaps(c, m))))
    const values = new Set(moments.map((o) => o.noted[field]))
    return {
      _tag: "ambiguous",
      field,
      candidates: mine,
      settle: { sharedWith, sameValue: values.size === 1 ? [...values][0] : undefined, differsAt: firstDifference(context, mine) }
    }
  })
}
