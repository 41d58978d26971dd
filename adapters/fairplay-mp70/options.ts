import { Schema } from "effect"
import { maxPeriod } from "../shared/field-values.ts"

/**
 * Where the fields sit, counted from the STX (= 0). The public description of
 * the ProLine output gives these; it also says they move between firmware
 * versions, so each is an option.
 */
export const defaultPositions = {
  /** Home score, 3 bytes (digits, space padded). */
  home: 13,
  /** Guest score, 3 bytes. */
  guest: 29,
  /** Period, 1 byte: a digit, or `O` for overtime. */
  period: 45,
  /** Game clock in a type `C` packet, 4 bytes `MMSS`. */
  clock: 2
} as const

export type FieldName = keyof typeof defaultPositions

export const fieldWidths: Readonly<Record<FieldName, number>> = { home: 3, guest: 3, period: 1, clock: 4 }

/** Fields of the type `H` (game state) packet; `clock` is in the type `C` packet. */
export const stateFields = ["home", "guest", "period"] as const satisfies ReadonlyArray<FieldName>

/** Packets shorter than this (STX and ETX included) are dropped. */
export const defaultMinLength = 80
const maxMinLength = 1024

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

const Position = Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: maxMinLength - 2 })).annotate({
  description: "Byte position counted from the STX (= 0); 1 is the type letter."
})

const Positions = Schema.Struct({
  home: Schema.optionalKey(Position.annotate({ description: "Home score, 3 bytes. Default 13." })),
  guest: Schema.optionalKey(Position.annotate({ description: "Guest score, 3 bytes. Default 29." })),
  period: Schema.optionalKey(Position.annotate({ description: "Period digit (`O` = overtime), 1 byte. Default 45." })),
  clock: Schema.optionalKey(Position.annotate({ description: "Clock `MMSS` in type C packets, 4 bytes. Default 2." }))
})

export interface ResolvedOptions {
  readonly positions: Readonly<Record<FieldName, number>>
  readonly minLength: number
}

export const resolveLayout = (options: { readonly positions?: Partial<Record<FieldName, number>> | undefined; readonly minLength?: number | undefined }): ResolvedOptions => ({
  positions: { ...defaultPositions, ...options.positions },
  minLength: options.minLength ?? defaultMinLength
})

/** What `O` in the period byte stands for at this place. */
export const overtimePeriodOf = (sport: string, overtimePeriod: number | undefined): number =>
  overtimePeriod ?? (Object.hasOwn(regulationPeriods, sport) ? regulationPeriods[sport]! : fallbackRegulation) + 1

/**
 * A field must end before the ETX of the shortest packet accepted, and two
 * fields of the `H` packet must not share a byte. Returns the option to blame
 * and why, or undefined.
 */
const span = (at: number, width: number) => (width === 1 ? `${at}` : `${at}–${at + width - 1}`)

export const layoutProblem = (layout: ResolvedOptions): { readonly path: ReadonlyArray<string>; readonly issue: string } | undefined => {
  const { minLength, positions } = layout
  for (const field of [...stateFields, "clock"] as const) {
    const end = positions[field] + fieldWidths[field] - 1
    if (end > minLength - 2) {
      return {
        path: ["positions", field],
        issue: `${field} at ${span(positions[field], fieldWidths[field])} runs into the ETX of a ${minLength}-byte packet (minLength ${minLength}): `
          + `a field must end by byte ${minLength - 2}; move it or raise minLength`
      }
    }
  }
  for (const [i, a] of stateFields.entries()) {
    for (const b of stateFields.slice(i + 1)) {
      const aEnd = positions[a] + fieldWidths[a]
      const bEnd = positions[b] + fieldWidths[b]
      if (positions[a] < bEnd && positions[b] < aEnd) {
        return {
          path: ["positions", b],
          issue: `${b} at ${span(positions[b], fieldWidths[b])} overlaps ${a} at ${span(positions[a], fieldWidths[a])} `
            + `(home and guest are 3 bytes, period 1)`
        }
      }
    }
  }
  return undefined
}

/**
 * The `options` block of a Fair-Play scoreboard. Every key is optional:
 * `{}` is the documented layout (so `sniff` can try it with no options).
 */
export const optionsSchema = Schema.Struct({
  positions: Schema.optionalKey(Positions),
  overtimePeriod: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: maxPeriod })).annotate({
    description: "The period number `O` in the period byte stands for. Default: the sport's regulation periods + 1 "
      + "(hockey 4, basketball 5). A digit is always that period: `4` is period 4 in every sport."
  })),
  minLength: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 8, maximum: maxMinLength })).annotate({
    description: "Shortest packet accepted, STX and ETX included; shorter ones are dropped and counted. Default 80."
  }))
}).check(Schema.makeFilter((options) => layoutProblem(resolveLayout(options))))

export type FairPlayOptions = typeof optionsSchema.Type
