import { Schema } from "effect"
import { maxPeriod } from "../shared/field-values.ts"

/**
 * Regular periods per sport (API sport codes). Extra time is shown as a
 * letter, read as the period after the last regular one.
 */
export const regularPeriods: Readonly<Record<string, number>> = {
  unihockey: 3,
  hockey: 3,
  handball: 2,
  futsal: 2,
  basketball: 4
}

/** Only 'E' is attested (after period 3 in two floorball captures); other letters need `periodLetters`. */
const extraTimeLetter = "E"

/** Letter → period for `sport`, `overrides` merged over the default. */
export const periodTable = (sport: string, overrides: Readonly<Record<string, number>> = {}): ReadonlyMap<number, number> => {
  const table = new Map<number, number>()
  const regular = Object.hasOwn(regularPeriods, sport) ? regularPeriods[sport] : undefined
  if (regular !== undefined) table.set(extraTimeLetter.charCodeAt(0), regular + 1)
  for (const [letter, period] of Object.entries(overrides)) table.set(letter.charCodeAt(0), period)
  return table
}

/** One printable character that is not a digit (digits are periods already) nor a blank (no period shown). */
const periodLetter = /^[\x21-\x2f\x3a-\x7e]$/

const PeriodLetters = Schema.Record(Schema.String, Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: maxPeriod })))
  .check(Schema.makeFilter((letters) => {
    const wrong = Object.keys(letters).filter((letter) => !periodLetter.test(letter))
    return wrong.length === 0 ? undefined : `periodLetters: ${wrong.map((w) => JSON.stringify(w)).join(", ")} is not one printable character other than a digit or blank, like "E"`
  }))

export const optionsSchema = Schema.Struct({
  /** Only message-11 frames with this sport digit (byte 7) are read; others are skipped. Default: any. */
  sportDigit: Schema.optional(Schema.String.check(Schema.isPattern(/^[0-9]$/u, { message: "sportDigit must be one digit, like \"7\"" }))),
  /** Letter → period number, merged over the default ('E' = the sport's last regular period + 1). */
  periodLetters: Schema.optional(PeriodLetters)
})

export type BodetOptions = typeof optionsSchema.Type
