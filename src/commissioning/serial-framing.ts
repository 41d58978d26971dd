import type { SerialOptions } from "../transport/serial.ts"

/**
 * How each character is framed on a serial line: data bits, parity, stop bits. A pty ignores
 * it, a real UART does not: a console read at the wrong framing shows parity or framing errors,
 * bytes that read as garbage, so the commissioning tools open each port with the framing asked.
 */
export type SerialFraming = Pick<SerialOptions, "dataBits" | "parity" | "stopBits">

/** The framing of most consoles and of text lines; the commissioning tools' default. */
export const eightNoneOne: SerialFraming = { dataBits: 8, parity: "none", stopBits: 1 }

/** Only the framing of a line (or of a protocol's `serialDefaults`). */
export const framingOf = ({ dataBits, parity, stopBits }: SerialFraming): SerialFraming => ({ dataBits, parity, stopBits })

/** "8N1", "8E1", "7O2": as consoles' manuals and converters' pages write it. */
export const framingLabel = ({ dataBits, parity, stopBits }: SerialFraming): string => `${dataBits}${parity[0]!.toUpperCase()}${stopBits}`

type FramingKey = keyof SerialFraming

/** The keys of a place's `serial:` block (src/config/place.ts) that say a framing other than 8N1, with their values. */
export const framingKeys = (framing: SerialFraming): ReadonlyArray<readonly [key: FramingKey, value: string | number]> =>
  (["dataBits", "parity", "stopBits"] as const).filter((key) => framing[key] !== eightNoneOne[key]).map((key) => [key, framing[key]] as const)

const captureFlag: Record<FramingKey, string> = { dataBits: "--data-bits", parity: "--parity", stopBits: "--stop-bits" }

/** `scorebridge capture`'s flags for a framing other than 8N1: " --parity even", or "" at 8N1. */
export const framingFlags = (framing: SerialFraming): string => framingKeys(framing).map(([key, value]) => ` ${captureFlag[key]} ${value}`).join("")
