import type { Reading } from "../../src/domain/reading.ts"
import { MalformedFrame } from "../shared/field-values.ts"
import { ReadingBatch } from "../shared/reading-batch.ts"
import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { defaultMaxPacketBytes, PacketSplitter } from "./framing.ts"
import { isProblem, type Layout, resolveLayout } from "./layout.ts"
import { fairplayLearning } from "./learn.ts"
import { type FairPlayOptions, optionsSchema, overtimePeriodOf, regulationPeriods } from "./options.ts"
import { clockIn, penaltiesIn, periodIn, scoreIn } from "./packet-reader.ts"
import { type PacketType, proline, rink, typeByte } from "./variants.ts"

export type { FairPlayOptions } from "./options.ts"

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

/**
 * Reads packets of both types into readings. Where the period sits in another
 * packet type than the score (the rink layout: period in C, score in H), the
 * last period shown goes into each score's reading, and a packet that changes
 * the period brings the last score with it, so a period change alone is a
 * change of state like on any other console. Until a packet has shown the
 * period, a score makes no reading: an entry must not say period 0 (none) a
 * moment before the console's period arrives.
 */
const packetReader = (layout: Layout, overtimePeriod: number) => {
  const { fields, scoreEdges, variant } = layout
  const scoreType = fields.home.type
  const periodType = fields.period.type
  let periodKnown = false
  let period: number | undefined
  let score: { readonly home: number; readonly away: number } | undefined

  return (packet: Uint8Array, type: PacketType, receivedAt: number): Reading => {
    // Everything is read before anything is kept: a bad packet changes nothing.
    const clock = fields.clock.type === type ? clockIn(packet, fields.clock.first) : undefined
    const hasScore = scoreType === type
    const home = hasScore ? scoreIn(packet, fields.home, scoreEdges.home) : undefined
    const away = hasScore ? scoreIn(packet, fields.away, scoreEdges.away) : undefined
    if ((home === undefined) !== (away === undefined)) throw new MalformedFrame("one score blank")
    const hasPeriod = periodType === type
    const shownPeriod = hasPeriod ? periodIn(packet, fields.period.first, overtimePeriod) : undefined
    const penalties = type === "H" && variant.penaltySlots.length > 0 ? penaltiesIn(packet, variant.penaltySlots) : undefined

    const reading: Draft = { receivedAt }
    if (clock !== undefined) reading.clock = clock
    if (penalties !== undefined) reading.penalties = penalties
    const periodChanged = hasPeriod && (!periodKnown || shownPeriod !== period)
    if (hasPeriod) {
      periodKnown = true
      period = shownPeriod
    }
    if (hasScore) score = home === undefined ? undefined : { home, away: away! }
    // The whole state when this packet shows the score (once a period was shown), or changes the period.
    if (periodKnown && (hasScore || periodChanged)) {
      if (score !== undefined) {
        reading.home = score.home
        reading.away = score.away
      }
      if (period !== undefined) reading.period = period
    } else if (hasPeriod && period !== undefined) {
      reading.period = period
    }
    return reading
  }
}

/** Trans-Lux Fair-Play MP-70 / MP-50 consoles' RS-232 data output. */
export const fairplayMp70: ProtocolDefinition<FairPlayOptions> = {
  name: "fairplay-mp70",
  description: "Trans-Lux Fair-Play MP-70/MP-50 console, RS-232 data output (STX … ETX packets: C clock and period, H score and penalties; or the 80-byte ProLine layout)",
  summary: "Trans-Lux Fair-Play MP-70/MP-50, RS-232 data output",
  maker: "Trans-Lux Fair-Play",
  model: "MP-70 / MP-50",
  wiring: "The console's DB-9 RS-232 port, not the 1/4\" phone jacks (they drive the board with Fair-Play's own signal). "
    + "In the sport's setup answer NO to \"VIDEO CHAR?\", and each connector's MP-69/MP-70 choice must be MP-70. "
    + "Into a USB-RS-232 adapter (FTDI): public notes disagree on the cable; start straight-through (pins 2, 3, 5) and, if nothing "
    + "arrives, add a null-modem adapter. 9600 baud, 8 data bits, no parity, 1 stop bit, no flow control (one note reports 19200 on some firmware).",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  // Each packet shows what the board shows in its fields; the period of the other packet type is carried, never settled.
  updates: "full",
  sports: Object.keys(regulationPeriods),
  optionsSchema,
  example: [
    "protocol: fairplay-mp70",
    "serial:",
    "  path: /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
    "options:",
    "  variant: rink"
  ].join("\n"),
  recognise: {
    // The two layouts differ on the wire (packet lengths, where the digits are): sniff tries both.
    variants: [
      { name: rink.name, words: rink.words, options: {} },
      { name: proline.name, words: proline.words, options: { variant: proline.name } }
    ]
  },
  learn: fairplayLearning,
  makeDecoder(options): Decoder {
    const layout = resolveLayout(options)
    // The config loader rejects these with the option named; this only guards direct callers.
    if (isProblem(layout)) throw new RangeError(`fairplay-mp70 options.${layout.path.join(".")}: ${layout.issue}`)
    const read = packetReader(layout, overtimePeriodOf(options.sport, options.overtimePeriod))
    const stats = emptyStats()
    // Never below the longest minimum, or no packet of that type could ever be read.
    const requested = Number.isInteger(options.maxFrameBytes) ? options.maxFrameBytes! : defaultMaxPacketBytes
    const splitter = new PacketSplitter(Math.max(requested, layout.minLength.C, layout.minLength.H), stats)
    const batch = new ReadingBatch()

    const onPacket = (packet: Uint8Array, length: number, startedAt: number) => {
      const type = packet[1] === typeByte.C ? "C" : packet[1] === typeByte.H ? "H" : undefined
      // Other packet types (other sports or firmware) are not errors: skipped, like bus traffic.
      if (type === undefined) {
        stats.skippedBytes += length
        return
      }
      if (length < layout.minLength[type]) {
        stats.badFrames++
        return
      }
      batch.read(stats, () => read(packet, type, startedAt))
    }

    return {
      stats,
      push(chunk, receivedAt) {
        splitter.push(chunk, receivedAt, onPacket)
        return batch.take()
      }
    }
  }
}
