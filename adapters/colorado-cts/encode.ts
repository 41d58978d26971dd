/**
 * The console's side of the legacy scoreboard line, byte by byte (../shared/protocols/colorado-cts.md §2),
 * for tests and the console model: what a packet looks like on the wire. Not used by the decoder.
 */

/** A digit as the module shows it: 0–15 (15 = blank), or null for a blank digit. */
export type DigitValue = number | null

/** `1 R c c c c c f`: channel inverted in bits 1–5, R = running (0x40), f = format packet. */
export const addressByte = (channel: number, options: { readonly running?: boolean; readonly format?: boolean } = {}): number =>
  0x80 | (options.running === true ? 0x40 : 0) | (((channel ^ 0x1f) & 0x1f) << 1) | (options.format === true ? 1 : 0)

/** `0 p p p v v v v`: position 0–7, value XOR 0xF (raw 0 = blank = value 15). */
export const digitByte = (position: number, value: DigitValue): number =>
  ((position & 7) << 4) | (((value ?? 15) ^ 0xf) & 0xf)

/**
 * A digit packet: the address, then the given positions in order. `digits[i]` is position
 * `positions[i]` (default 0, 1, 2, …).
 */
export const digitPacket = (
  channel: number,
  digits: ReadonlyArray<DigitValue>,
  options: { readonly running?: boolean; readonly positions?: ReadonlyArray<number> } = {}
): Array<number> => [
  addressByte(channel, { ...(options.running === undefined ? {} : { running: options.running }) }),
  ...digits.map((value, index) => digitByte(options.positions?.[index] ?? index, value))
]

/** A format packet: eight flag values (after XOR), 0 = nothing lit, 2 = colon/point, 4 = blanked. */
export const formatPacket = (channel: number, flags: ReadonlyArray<number>, options: { readonly running?: boolean } = {}): Array<number> => [
  addressByte(channel, { format: true, ...(options.running === undefined ? {} : { running: options.running }) }),
  ...flags.map((flag, position) => digitByte(position, flag))
]

/** Text as a module shows it, one character per position ("  1 2834" → digits; space = blank). */
export const digitsOf = (text: string): Array<DigitValue> =>
  Array.from(text.padEnd(8, " ").slice(0, 8), (c) => (c === " " ? null : Number.parseInt(c, 10)))
