import { Schema } from "effect"

/**
 * Which sport a frame's byte 1 announces. Layouts are chosen by sport name,
 * so a console generation with other codes only needs `sportCodes` in the
 * options, e.g. `{ "0x46": "volleyball" }`.
 */
export const defaultSportCodes: Readonly<Record<string, string>> = {
  "0x33": "basketball",
  // One code for the whole family; their layout is not documented (see README).
  "0x35": "handball",
  "0x36": "volleyball",
  "0x39": "tennis"
}

const sportCode = /^0x[0-9a-fA-F]{2}$/

const SportCodes = Schema.Record(Schema.String, Schema.NonEmptyString).check(Schema.makeFilter((codes) => {
  const wrong = Object.keys(codes).filter((code) => !sportCode.test(code))
  return wrong.length === 0 ? undefined : `sportCodes: ${wrong.join(", ")} is not a byte like 0x36`
}))

export const optionsSchema = Schema.Struct({
  /** Merged over `defaultSportCodes`. */
  sportCodes: Schema.optional(SportCodes)
})

export type StramatelOptions = typeof optionsSchema.Type

/** Sport name by code byte, defaults overridden by `overrides`. */
export const sportTable = (overrides: Readonly<Record<string, string>> = {}): ReadonlyArray<string | undefined> => {
  const table = new Array<string | undefined>(256).fill(undefined)
  for (const [code, sport] of Object.entries({ ...defaultSportCodes, ...overrides })) table[Number(code)] = sport
  return table
}

/** The code a sport is sent with by default, for the encoder. */
export const defaultCodeOf = (sport: string): number | undefined => {
  const entry = Object.entries(defaultSportCodes).find(([, name]) => name === sport)
  return entry === undefined ? undefined : Number(entry[0])
}
