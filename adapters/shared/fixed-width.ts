import { MalformedFrame } from "./field-values.ts"

const blank = 0x20
const zero = 0x30

/**
 * A right-aligned number in a fixed-width ASCII field, as consoles send them:
 * leading blanks, then digits. All blank is `undefined` (nothing shown);
 * anything else, a flag byte with bit 7 set included, is a malformed frame.
 */
export const blankPaddedNumber = (frame: Uint8Array, at: number, width: number): number | undefined => {
  let i = at
  const end = at + width
  while (i < end && frame[i] === blank) i++
  if (i === end) return undefined
  let value = 0
  for (; i < end; i++) {
    const digit = frame[i]! - zero
    if (digit < 0 || digit > 9) throw new MalformedFrame(`byte ${i} is not a digit`)
    value = value * 10 + digit
  }
  return value
}
