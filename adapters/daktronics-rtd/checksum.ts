/** RTD checksum: sum of the bytes, modulo 256. */
export const checksum = (bytes: Uint8Array): number => {
  let sum = 0
  for (const byte of bytes) sum = (sum + byte) & 0xff
  return sum
}

/** Two upper-case ASCII hex digits, as the console writes them. */
export const checksumDigits = (sum: number): string => sum.toString(16).toUpperCase().padStart(2, "0")

const hexValue = (byte: number | undefined): number => {
  if (byte === undefined) return -1
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37
  return -1
}

/**
 * A frame body (everything between SYN and ETB) ends with EOT and two hex
 * digits; the sum covers every byte before them, EOT included.
 */
export const hasValidChecksum = (body: Uint8Array): boolean => {
  const n = body.length
  if (n < 3) return false
  const high = hexValue(body[n - 2])
  const low = hexValue(body[n - 1])
  if (high < 0 || low < 0) return false
  return checksum(body.subarray(0, n - 2)) === high * 16 + low
}
