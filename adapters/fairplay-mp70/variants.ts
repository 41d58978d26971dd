/**
 * The two public descriptions of the MP-70's RS-232 packets. Positions count
 * from the STX (= 0), both ends included. Facts and sources:
 * ../shared/protocols/fairplay-mp70.md (the protocol notes beside the
 * project, from its root).
 */

/** Type letters (byte 1). */
export const clockType = 0x43 // C
export const stateType = 0x48 // H

export type PacketType = "C" | "H"
export const packetTypes: ReadonlyArray<PacketType> = ["C", "H"]
export const typeByte: Readonly<Record<PacketType, number>> = { C: clockType, H: stateType }

export type FieldName = "home" | "away" | "period" | "clock"
export const fieldNames: ReadonlyArray<FieldName> = ["home", "away", "period", "clock"]

export interface Placed {
  readonly type: PacketType
  readonly first: number
  readonly last: number
}

/** A penalty slot of the rink layout: player number (2 bytes), a blank, time left `MSS` (3 bytes). */
export interface PenaltySlot {
  readonly side: "home" | "away"
  readonly at: number
}
export const penaltySlotWidth = 6

export type VariantName = "rink" | "proline"
export const variantNames: ReadonlyArray<VariantName> = ["rink", "proline"]

export interface Variant {
  readonly name: VariantName
  /** Shortest packet of each type the console sends, STX and ETX included. */
  readonly lengths: Readonly<Record<PacketType, number>>
  readonly fields: Readonly<Record<FieldName, Placed>>
  /** Penalty slots read into `Reading.penalties` (H packets); they do not move. */
  readonly penaltySlots: ReadonlyArray<PenaltySlot>
  /** How the console pads a score in a 3-byte field: `centred` ` 3 ` (rink), `left of a blank` ` 3 `/`12 ` (ProLine). */
  readonly scoreStyle: "centred" | "trailing-blank"
  /** Bytes the console sends that no field reads, for the encoder (the rink console's `60` at C 8–9). */
  readonly filler: ReadonlyArray<readonly [PacketType, number, string]>
  /** For `sniff`: what tells it on the wire. */
  readonly words: string
}

const at = (type: PacketType, first: number, last = first): Placed => ({ type, first, last })

/** Variant A: what a real MP-70 at an ice rink sent. C 11 bytes (clock, period), H 55 bytes (scores, penalties). */
export const rink: Variant = {
  name: "rink",
  lengths: { C: 11, H: 55 },
  fields: {
    // One digit was seen at 13 and 39, blanks around; two digits are inferred to sit in 12–14 / 38–40.
    home: at("H", 12, 14),
    away: at("H", 38, 40),
    period: at("C", 7),
    clock: at("C", 2, 5)
  },
  penaltySlots: [
    { side: "home", at: 16 },
    { side: "home", at: 22 },
    { side: "away", at: 42 },
    { side: "away", at: 48 }
  ],
  scoreStyle: "centred",
  filler: [["C", 8, "60"]],
  words: "11-byte C packets with the clock and the period at byte 7, 55-byte H packets with the scores and penalties, as a real MP-70 at a rink sent"
}

/** Variant B: the unverified 80-byte "ProLine" description. Penalty clocks at H 52–71 are not read. */
export const proline: Variant = {
  name: "proline",
  lengths: { C: 80, H: 80 },
  fields: {
    home: at("H", 13, 15),
    away: at("H", 29, 31),
    period: at("H", 45),
    clock: at("C", 2, 5)
  },
  penaltySlots: [],
  scoreStyle: "trailing-blank",
  filler: [],
  words: "80-byte C and H packets, the period in the H packet, as the unverified ProLine description has it"
}

export const variants: Readonly<Record<VariantName, Variant>> = { rink, proline }
