import type { ProtocolDefinition } from "../../adapters/decoder.ts"

/**
 * FTDI's default latency timer: a USB-serial adapter hands received bytes to
 * the host in batches this far apart, so frames sent back to back can reach
 * the bridge in reads up to this long after each other.
 */
const usbLatencyMs = 16

/** Three RTD frames (~30 bytes each): a read can end mid-frame, and a few unrelated frames may sit inside one change. */
const burstSlackBytes = 96

/** Event-loop and scheduler jitter on a busy mini-PC. */
const schedulingMarginMs = 10

/** The longest settle window a place may set: longer would merge real changes of a fast game. */
export const maxSettleMs = 1_000

/** Bits on the wire per byte at 8N1: start bit, 8 data bits, stop bit. */
const bitsPerByte = 10

/**
 * How long a change of a `partial`-update protocol is held for more frames of
 * the same change, by line speed: the USB batch interval plus the time a few
 * frames take on the wire, plus a margin, rounded up to 10 ms. 19200 baud
 * (Daktronics RTD): 80 ms; 9600: 130 ms; 115200: 40 ms. `full`-update
 * protocols are not settled (0): every frame is a state the board showed and
 * must not wait.
 */
export const defaultSettleMs = (protocol: Pick<ProtocolDefinition, "updates" | "serialDefaults">, baudRate?: number): number => {
  if (protocol.updates === "full") return 0
  const baud = baudRate ?? protocol.serialDefaults.baudRate
  const wireMs = (burstSlackBytes * bitsPerByte * 1000) / baud
  return Math.ceil((usbLatencyMs + wireMs + schedulingMarginMs) / 10) * 10
}
