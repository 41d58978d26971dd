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
 * A serial-to-Ethernet converter (Moxa NPort, USR-TCP232) sends what it read from the line
 * after its packing interval (a few ms to a few tens of ms by model and setting), and the
 * network adds its own jitter: together they take the USB batch's place in the window.
 */
const converterPackingMs = 20
const networkJitterMs = 10

/** The link between the console and the bridge, as far as the settle window cares. */
export type LinkTiming =
  | { readonly kind: "serial"; readonly baudRate?: number }
  /** Frames forwarded one per message by a gateway that read them at the protocol's speed. */
  | { readonly kind: "mqtt" }
  /** TCP or UDP: the console's own network output, or a converter on its serial line. */
  | { readonly kind: "network" }

/**
 * How long a change of a `partial`-update protocol is held for more frames of
 * the same change: the USB batch interval (a converter's packing interval and
 * network jitter on a network link) plus the time a few frames take on the
 * wire, plus a margin, rounded up to 10 ms. Daktronics RTD at 19200 baud:
 * 80 ms on serial and MQTT, 90 ms over the network; 9600: 130 ms; 115200:
 * 40 ms. `full`-update protocols are not settled (0): every frame is a state
 * the board showed and must not wait.
 */
export const defaultSettleMs = (
  protocol: Pick<ProtocolDefinition, "updates" | "serialDefaults">,
  link: LinkTiming = { kind: "serial" }
): number => {
  if (protocol.updates === "full") return 0
  const baud = (link.kind === "serial" ? link.baudRate : undefined) ?? protocol.serialDefaults.baudRate
  const wireMs = (burstSlackBytes * bitsPerByte * 1000) / baud
  const batchMs = link.kind === "network" ? converterPackingMs + networkJitterMs : usbLatencyMs
  return Math.ceil((batchMs + wireMs + schedulingMarginMs) / 10) * 10
}
