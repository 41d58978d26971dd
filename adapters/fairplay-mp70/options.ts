import { Schema } from "effect"
import { FieldRangeText } from "../shared/field-ranges.ts"
import { maxPeriod } from "../shared/field-values.ts"
import { isProblem, resolveLayout } from "./layout.ts"
import { variantNames } from "./variants.ts"

/**
 * Regulation periods of the sports a Fair-Play rink or gym console runs with
 * the generic entry (home, away, period). `O` in the period byte is the first
 * period after these unless `overtimePeriod` says otherwise.
 */
export const regulationPeriods: Readonly<Record<string, number>> = {
  hockey: 3,
  // Summer uses of the same arena floor: ball hockey and box lacrosse (three periods in Canadian box lacrosse).
  ballhockey: 3,
  lacrosse: 3,
  unihockey: 3,
  basketball: 4,
  futsal: 2,
  handball: 2
}

/** When the place's sport is not one of ours (only in tools that try every decoder): hockey, the console's main use. */
const fallbackRegulation = 3

/** What `O` in the period byte stands for at this place. */
export const overtimePeriodOf = (sport: string, overtimePeriod: number | undefined): number =>
  overtimePeriod ?? (Object.hasOwn(regulationPeriods, sport) ? regulationPeriods[sport]! : fallbackRegulation) + 1

const Fields = Schema.Struct({
  home: Schema.optionalKey(FieldRangeText.annotate({ description: "Home score, 1–3 bytes, e.g. \"H 12-14\"." })),
  away: Schema.optionalKey(FieldRangeText.annotate({ description: "Guest score, 1–3 bytes, e.g. \"H 38-40\"." })),
  period: Schema.optionalKey(FieldRangeText.annotate({ description: "Period, one byte (a digit, or O for overtime), e.g. \"C 7\"." })),
  clock: Schema.optionalKey(FieldRangeText.annotate({ description: "Game clock MMSS, 4 bytes, e.g. \"C 2-5\"." }))
}).annotate({
  description: "Where a field sits, overriding the variant's place for it: \"<C or H> <first>-<last>\", bytes counted from the STX (= 0), both ends included."
})

/** The options this protocol had before the rink layout was known; a config that still has them is told what replaced them. */
const retired = { positions: "fields (e.g. fields: { home: \"H 13-15\" })", minLength: "variant (the packet lengths follow from it and from fields)" } as const

/**
 * The `options` block of a Fair-Play scoreboard. Every key is optional: `{}`
 * is the layout a real console sent (so `sniff` can try the protocol with no options).
 */
export const optionsSchema = Schema.Struct({
  variant: Schema.optionalKey(Schema.Literals(variantNames).annotate({
    description: "Packet layout: rink (default: 11-byte C packets with clock and period, 55-byte H packets with scores and penalties, "
      + "as a real MP-70 sent) or proline (80-byte packets, period in H, as the unverified ProLine description has it)."
  })),
  fields: Schema.optionalKey(Fields),
  overtimePeriod: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: maxPeriod })).annotate({
    description: "The period number `O` in the period byte stands for. Default: the sport's regulation periods + 1 "
      + "(hockey 4, basketball 5). A digit is always that period: `4` is period 4 in every sport."
  })),
  positions: Schema.optionalKey(Schema.Unknown),
  minLength: Schema.optionalKey(Schema.Unknown)
}).check(Schema.makeFilter((options) => {
  for (const [key, instead] of Object.entries(retired)) {
    if (Object.hasOwn(options, key)) return { path: [key], issue: `${key} is no longer an option: use ${instead}; see adapters/fairplay-mp70/README.md` }
  }
  const layout = resolveLayout(options)
  return isProblem(layout) ? layout : undefined
}))

export type FairPlayOptions = Omit<typeof optionsSchema.Type, keyof typeof retired>
