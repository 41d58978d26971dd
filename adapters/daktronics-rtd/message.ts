import { SOH, STX } from "./framing.ts"

/** What a checksum-verified frame body carries. */
export type Message =
  | { readonly _tag: "data"; readonly offset: number; readonly data: Uint8Array }
  /** A frame of another type (e.g. `003010006`): valid, but no buffer data. */
  | { readonly _tag: "other" }
  | { readonly _tag: "malformed" }

const ZERO = 0x30
const PREFIX_LENGTH = 8
const DATA_HEADER = "004210"
const OFFSET_DIGITS = 4
/** EOT and the two checksum digits that end every body. */
const TRAILER_LENGTH = 3

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= ZERO && byte <= ZERO + 9

const startsWithDataHeader = (body: Uint8Array, at: number): boolean => {
  for (let i = 0; i < DATA_HEADER.length; i++) {
    if (body[at + i] !== DATA_HEADER.charCodeAt(i)) return false
  }
  return true
}

/**
 * Parses a body whose checksum already verified:
 * `"00000000" SOH header [STX data] EOT hh`, header `004210dddd` for data.
 */
export const parseMessage = (body: Uint8Array): Message => {
  for (let i = 0; i < PREFIX_LENGTH; i++) {
    if (body[i] !== ZERO) return { _tag: "malformed" }
  }
  if (body[PREFIX_LENGTH] !== SOH) return { _tag: "malformed" }
  const headerStart = PREFIX_LENGTH + 1
  if (!startsWithDataHeader(body, headerStart)) return { _tag: "other" }
  const offsetStart = headerStart + DATA_HEADER.length
  const stx = offsetStart + OFFSET_DIGITS
  const end = body.length - TRAILER_LENGTH
  if (body[stx] !== STX || stx >= end) return { _tag: "malformed" }
  let offset = 0
  for (let i = offsetStart; i < stx; i++) {
    const byte = body[i]
    if (byte === undefined || !isDigit(byte)) return { _tag: "malformed" }
    offset = offset * 10 + byte - ZERO
  }
  return { _tag: "data", offset, data: body.subarray(stx + 1, end) }
}
