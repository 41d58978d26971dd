/**
 * Bytes written the way protocol notes and captures show them, for tests and the bench.
 * `ascii`: one byte per character (its code, low 8 bits), as consoles send their text fields.
 */
export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff)

/** `hex("01 7f 02")`: bytes from hexadecimal pairs separated by white space. */
export const hex = (text: string): Uint8Array => Uint8Array.from(text.trim().split(/\s+/u), (pair) => Number.parseInt(pair, 16))
