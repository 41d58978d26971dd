import { ReadingBatch } from "../shared/reading-batch.ts"
import { type Decoder, type DecoderStats, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { group, hasValidLrc, makeFrameSplitter, shortestFrame, STX } from "./framing.ts"
import { message11, readMessage11 } from "./message-11.ts"
import { type BodetOptions, optionsSchema, periodTable, regularPeriods } from "./options.ts"

export type { BodetOptions } from "./options.ts"

export interface BodetStats extends DecoderStats {
  /**
   * Frames with a valid LRC that carry no score for this place: other message
   * types (penalties, time-outs …) and, with `sportDigit`, message 11 of
   * another sport. Their bytes are also in `skippedBytes`; they are not in `frames`.
   */
  otherMessages: number
}

/** Without `maxFrameBytes`: room for any message seen (the longest known is message 11, 21 bytes) several times over. */
const defaultCapacity = 256

const capacityOf = (maxFrameBytes: number | undefined): number =>
  maxFrameBytes === undefined || !Number.isFinite(maxFrameBytes) ? defaultCapacity : Math.max(message11.length, Math.floor(maxFrameBytes))

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39

/** Bodet Scorepad consoles' network (TCP) or serial output, message 11. */
export const bodetScorepad: ProtocolDefinition<BodetOptions> = {
  name: "bodet-scorepad",
  description: "Bodet Scorepad console, network (TCP, the console connects) or RS-232 output: message 11 (clock, score, period)",
  // Not documented in what we could read; 9600 8N1 is the common default of such links (see README).
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  summary: "Bodet Scorepad, message 11",
  maker: "Bodet",
  model: "Scorepad",
  wiring: "Network (recommended): the console connects to the bridge. On the Scorepad: technician menu (code 4934) → network settings "
    + "(a fixed address on the bridge's network) → Communication protocols → a \"Protocol TV\" protocol with the bridge's IP address "
    + "and port 4001 → enable it; the bridge listens on that port (TCP listen 0.0.0.0:4001). Serial: the console's RJ45 output through "
    + "Bodet's RJ45/RS-232 interface into a USB-RS-232 adapter; its speed is not documented (9600 8N1 is a guess). "
    + "Only floorball has been seen on the wire: other sports may send other messages.",
  updates: "full",
  sports: Object.keys(regularPeriods),
  optionsSchema,
  example: [
    "protocol: bodet-scorepad",
    "tcp:",
    "  listen: 0.0.0.0:4001",
    "  from: 192.168.10.11"
  ].join("\n"),
  recognise: {},
  makeDecoder(options): Decoder & { readonly stats: BodetStats } {
    const stats: BodetStats = { ...emptyStats(), otherMessages: 0 }
    const splitter = makeFrameSplitter(capacityOf(options.maxFrameBytes), stats)
    const letters = periodTable(options.sport, options.periodLetters)
    const sportDigit = options.sportDigit === undefined ? undefined : options.sportDigit.charCodeAt(0)
    const batch = new ReadingBatch()

    const notForUs = (length: number) => {
      stats.otherMessages++
      stats.skippedBytes += length
    }

    const onFrame = (frame: Uint8Array, length: number, startedAt: number) => {
      const wellFormed = length >= shortestFrame && frame[2] === STX && frame[3] === group && isDigit(frame[4]) && isDigit(frame[5])
      if (!wellFormed || !hasValidLrc(frame, length)) {
        stats.badFrames++
        return
      }
      if (frame[4] !== 0x31 || frame[5] !== 0x31) return notForUs(length)
      if (length !== message11.length) {
        stats.badFrames++
        return
      }
      if (sportDigit !== undefined && frame[message11.sport] !== sportDigit) return notForUs(length)
      batch.read(stats, () => readMessage11(frame, startedAt, letters))
    }

    return {
      stats,
      push(chunk, receivedAt) {
        splitter.push(chunk, receivedAt, onFrame)
        return batch.take()
      }
    }
  }
}
