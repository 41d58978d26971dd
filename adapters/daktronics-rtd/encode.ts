import { checksum, checksumDigits } from "./checksum.ts"
import { EOT, ETB, SOH, STX, SYN } from "./framing.ts"

const ascii = (text: string): Array<number> => Array.from(text, (char) => char.charCodeAt(0) & 0xff)

/**
 * Encodes one RTD data frame as the console sends it: `text` written at
 * buffer `offset` (0–9999). Simulates a console in the demo, tests and benchmarks.
 */
export const frame = (offset: number, text: string): Uint8Array => {
  if (!Number.isInteger(offset) || offset < 0 || offset > 9999) throw new RangeError(`RTD offset out of range: ${offset}`)
  const summed = [...ascii("00000000"), SOH, ...ascii(`004210${String(offset).padStart(4, "0")}`), STX, ...ascii(text), EOT]
  return Uint8Array.from([SYN, ...summed, ...ascii(checksumDigits(checksum(Uint8Array.from(summed)))), ETB])
}
