import { Schema } from "effect"
import { type LayoutName, layoutNameOf, sportLayouts } from "./layouts.ts"

/**
 * Which frame byte 1 announces, by the sport whose layout reads it. One code
 * serves several sports (0x33 basketball and netball; 0x35 handball, football,
 * futsal, hockey, floorball): a code's frames are read at every place whose
 * sport shares that layout. A console generation with other codes only needs
 * `sportCodes` in the options, e.g. `{ "0x46": "volleyball" }`.
 *
 * Not read, so skipped as bus traffic: 0x37/0x38 individual points, 0x77/0x62
 * names, 0x4D/0x43 messages, 0x9A/0x99/0x9C/0x66 stopwatch, time setting,
 * training, LED test; 0x3A table tennis and 0x6C badminton (no sport code in
 * the service).
 */
export const defaultSportCodes: Readonly<Record<string, string>> = {
  "0x33": "basketball",
  "0x35": "handball",
  "0x36": "volleyball",
  "0x39": "tennis"
}

/** For sniff: the codes that serve several sports, in the console's words, with the sport codes to choose from. */
export const sportFamilies: ReadonlyArray<{ readonly words: string; readonly sports: ReadonlyArray<string> }> = [
  { words: "code 0x33: basketball or netball", sports: ["basketball"] },
  { words: "code 0x35: handball, football/futsal, hockey or floorball", sports: ["handball", "soccer", "futsal", "hockey", "unihockey"] }
]

const sportCode = /^0x[0-9a-fA-F]{2}$/

export const readSports = Object.keys(sportLayouts)

export const SportCodes = Schema.Record(Schema.String, Schema.NonEmptyString).check(Schema.makeFilter((codes) => {
  const wrong = Object.keys(codes).filter((code) => !sportCode.test(code))
  if (wrong.length > 0) return `sportCodes: ${wrong.join(", ")} is not a byte like 0x36`
  const unread = Object.entries(codes).filter(([, sport]) => layoutNameOf(sport) === undefined)
  return unread.length === 0
    ? undefined
    : `sportCodes: ${unread.map(([code, sport]) => `${code}: "${sport}"`).join(", ")} is not a sport this protocol reads (${readSports.join(", ")})`
}))

/** Layout name by code byte, defaults overridden by `overrides`. */
export const codeTable = (overrides: Readonly<Record<string, string>> = {}): ReadonlyArray<LayoutName | undefined> => {
  const table = new Array<LayoutName | undefined>(256).fill(undefined)
  for (const [code, sport] of Object.entries({ ...defaultSportCodes, ...overrides })) table[Number(code)] = layoutNameOf(sport)
  return table
}

