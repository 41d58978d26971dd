import { Schema } from "effect"

/**
 * Where a field sits in a framed protocol, as the options of the adapters
 * that let a console generation move its fields (Fair-Play, Stramatel) and the
 * layout finder write it: `"<type> <first>-<last>"`, e.g. `"H 12-14"`,
 * `"0x35 9-10"`, or one byte as `"C 7"`. The type is the packet's type byte,
 * written as a letter (`C`, `H`) or as 0x-hex (`0x35`, a Stramatel sport
 * code); bytes count from the frame's first byte (its STX or 0xF8) = 0, both
 * ends included. Which types and bytes make sense is the adapter's to check.
 */
export interface FieldRange {
  /** The type token as written: `H`, `0x35`. */
  readonly type: string
  /** The byte that token stands for: `H` is 0x48, `0x35` is 0x35. */
  readonly typeByte: number
  /** First and last byte, inclusive. */
  readonly first: number
  readonly last: number
}

/** A field range that is not written as `"<type> <first>-<last>"`; the message says what is wrong, not which option. */
export class FieldRangeError extends Error {}

/** Positions are at most this: no framed console here sends packets anywhere near 10 kB. */
const maxPosition = 9999

const shape = /^(\S+) +(\d+)(?: *[-–] *(\d+))?$/u
const letter = /^[A-Za-z]$/u
const hexByte = /^0[xX][0-9A-Fa-f]{2}$/u

export const fieldRangeFormat = "\"<type> <first>-<last>\" (e.g. \"H 12-14\", \"0x35 9-10\", one byte as \"C 7\")"

/** Parses `"H 12-14"`; throws `FieldRangeError` saying what is wrong. */
export const parseFieldRange = (text: string): FieldRange => {
  const parts = shape.exec(text.trim())
  if (parts === null) throw new FieldRangeError(`${JSON.stringify(text)} is not ${fieldRangeFormat}`)
  const [, type, firstText, lastText] = parts as unknown as [string, string, string, string | undefined]
  if (!letter.test(type) && !hexByte.test(type)) {
    throw new FieldRangeError(`${JSON.stringify(text)}: the type ${JSON.stringify(type)} must be one letter (C, H) or one byte in 0x-hex (0x35)`)
  }
  const first = Number(firstText)
  const last = lastText === undefined ? first : Number(lastText)
  if (first > maxPosition || last > maxPosition) throw new FieldRangeError(`${JSON.stringify(text)}: bytes past ${maxPosition}`)
  if (last < first) throw new FieldRangeError(`${JSON.stringify(text)}: the last byte ${last} comes before the first ${first}`)
  return { type, typeByte: type.length === 1 ? type.charCodeAt(0) : Number(type), first, last }
}

/** `{ type: "H", first: 12, last: 14 }` → `"H 12-14"`; one byte → `"C 7"`. */
export const formatFieldRange = (range: Pick<FieldRange, "type" | "first" | "last">): string =>
  range.first === range.last ? `${range.type} ${range.first}` : `${range.type} ${range.first}-${range.last}`

/** A type byte as the options write it in 0x-hex: `0x35`. */
export const codeText = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** The range's width in bytes. */
export const widthOf = (range: Pick<FieldRange, "first" | "last">): number => range.last - range.first + 1

/** Two ranges in the same packet type sharing a byte. */
export const overlap = (a: FieldRange, b: FieldRange): boolean => a.typeByte === b.typeByte && a.first <= b.last && b.first <= a.last

/**
 * One field range in an options block: a string in the format above, checked
 * for its shape only (types and positions are the adapter's to check, with the
 * option named).
 */
export const FieldRangeText = Schema.String.check(
  Schema.makeFilter((text: string) => {
    try {
      parseFieldRange(text)
      return undefined
    } catch (error) {
      if (error instanceof FieldRangeError) return error.message
      throw error
    }
  })
).annotate({ description: `Where a field sits: ${fieldRangeFormat}; bytes counted from the frame's first byte = 0, both ends included.` })
