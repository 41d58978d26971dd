import { FieldRangeError, formatFieldRange, parseFieldRange } from "../shared/field-ranges.ts"
import { type FieldName, fieldNames, type PacketType, packetTypes, penaltySlotWidth, type Placed, typeByte, type Variant, type VariantName, variants } from "./variants.ts"

/** Packets are at most this long (STX and ETX included); a field must end two bytes before. */
export const maxPacketBytes = 1024

/** Bytes per field: a score 1–3 digits, the period one byte, the clock `MMSS`. */
const widths: Readonly<Record<FieldName, { readonly min: number; readonly max: number; readonly what: string }>> = {
  home: { min: 1, max: 3, what: "a score is 1 to 3 bytes" },
  away: { min: 1, max: 3, what: "a score is 1 to 3 bytes" },
  period: { min: 1, max: 1, what: "the period is one byte (a digit, or O)" },
  clock: { min: 4, max: 4, what: "the clock is 4 bytes (MMSS)" }
}

export interface LayoutOptions {
  readonly variant?: VariantName | undefined
  readonly fields?: Partial<Record<FieldName, string>> | undefined
}

export interface Layout {
  readonly variant: Variant
  readonly fields: Readonly<Record<FieldName, Placed>>
  /** Shortest packet of each type read: the variant's, or longer if a field sits further in. */
  readonly minLength: Readonly<Record<PacketType, number>>
  /** Bytes beside each score that must not be digits: a digit there means the number runs past its field. */
  readonly scoreEdges: Readonly<Record<"home" | "away", ReadonlyArray<number>>>
}

export interface LayoutProblem {
  readonly path: ReadonlyArray<string>
  readonly issue: string
}

const shownRange = (placed: Placed): string => formatFieldRange(placed)

const typeOf = (byte: number): PacketType | undefined => packetTypes.find((type) => typeByte[type] === byte)

/** One `fields` value as a place in a packet, or what is wrong with it. */
const placedFrom = (field: FieldName, text: string): Placed | string => {
  let range
  try {
    range = parseFieldRange(text)
  } catch (error) {
    if (error instanceof FieldRangeError) return error.message
    throw error
  }
  const type = typeOf(range.typeByte)
  if (type === undefined) {
    const upper = /^[ch]$/u.test(range.type) ? ` (upper case: ${range.type.toUpperCase()})` : ""
    return `${JSON.stringify(text)}: the MP-70 sends C and H packets; the type must be C or H${upper}, not ${range.type}`
  }
  if (range.first < 2) return `${JSON.stringify(text)}: bytes 0 and 1 are the STX and the type letter; a field starts at byte 2 or later`
  if (range.last > maxPacketBytes - 2) return `${JSON.stringify(text)}: runs past byte ${maxPacketBytes - 2} (packets are read up to ${maxPacketBytes} bytes)`
  const width = range.last - range.first + 1
  const { max, min, what } = widths[field]
  if (width < min || width > max) return `${JSON.stringify(text)}: ${what}, not ${width}`
  return { type, first: range.first, last: range.last }
}

const overlaps = (a: Placed, b: Placed) => a.type === b.type && a.first <= b.last && b.first <= a.last

const slotWords = (variant: Variant, index: number) => {
  const slot = variant.penaltySlots[index]!
  const nth = variant.penaltySlots.filter((s, i) => s.side === slot.side && i < index).length + 1
  return `the ${slot.side === "home" ? "home" : "guest"} penalty slot ${nth} at H ${slot.at}-${slot.at + penaltySlotWidth - 1} (player, blank, time MSS)`
}

/** The variant with `fields` applied, or the first problem, naming the option. */
export const resolveLayout = (options: LayoutOptions): Layout | LayoutProblem => {
  const variant = variants[options.variant ?? "rink"]
  const given = options.fields ?? {}
  const fields: Record<FieldName, Placed> = { ...variant.fields }
  for (const field of fieldNames) {
    const text = given[field]
    if (text === undefined) continue
    const placed = placedFrom(field, text)
    if (typeof placed === "string") return { path: ["fields", field], issue: placed }
    fields[field] = placed
  }
  if (fields.home.type !== fields.away.type) {
    const moved = given.away !== undefined ? "away" : "home"
    return {
      path: ["fields", moved],
      issue: `home is in ${fields.home.type} packets and away in ${fields.away.type}: both scores must come from one packet type (a score is never put together from two packets)`
    }
  }
  for (const field of fieldNames) {
    if (given[field] === undefined) continue
    const mine = fields[field]
    for (const other of fieldNames) {
      if (other === field || !overlaps(mine, fields[other])) continue
      const moveToo = given[other] === undefined ? ` (its place in variant ${variant.name}: move it too)` : ""
      return { path: ["fields", field], issue: `${field} at ${shownRange(mine)} overlaps ${other} at ${shownRange(fields[other])}${moveToo}` }
    }
    const slot = variant.penaltySlots.findIndex((s) => overlaps(mine, { type: "H", first: s.at, last: s.at + penaltySlotWidth - 1 }))
    if (slot >= 0) {
      return {
        path: ["fields", field],
        issue: `${field} at ${shownRange(mine)} overlaps ${slotWords(variant, slot)} of variant ${variant.name}: a penalty is never read as ${field}`
      }
    }
  }
  const minLength = { ...variant.lengths }
  for (const field of fieldNames) minLength[fields[field].type] = Math.max(minLength[fields[field].type], fields[field].last + 2)

  // A byte beside a score, inside the shortest packet and in no other field or penalty slot, must not be a digit.
  const taken = (type: PacketType, i: number) =>
    fieldNames.some((f) => overlaps(fields[f], { type, first: i, last: i }))
    || (type === "H" && variant.penaltySlots.some((s) => i >= s.at && i < s.at + penaltySlotWidth))
  const edgesOf = ({ type, first, last }: Placed) => [first - 1, last + 1].filter((i) => i >= 2 && i <= minLength[type] - 2 && !taken(type, i))
  return { variant, fields, minLength, scoreEdges: { home: edgesOf(fields.home), away: edgesOf(fields.away) } }
}

export const isProblem = (resolved: Layout | LayoutProblem): resolved is LayoutProblem => "issue" in resolved
