import { ReadingBatch } from "../shared/reading-batch.ts"
import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { frameLength, makeFrameScanner } from "./framing.ts"
import { readFrame } from "./frame-reader.ts"
import { layoutNameOf } from "./layouts.ts"
import { stramatelLearning } from "./learn.ts"
import { layoutsByCode, optionsSchema, type StramatelOptions, unreadFields } from "./options.ts"
import { readSports, sportFamilies } from "./sport-codes.ts"

export type { StramatelOptions } from "./options.ts"

/** Stramatel 452 M consoles' "Interface TV" output. */
export const stramatel452m: ProtocolDefinition<StramatelOptions> = {
  name: "stramatel-452m",
  description: "Stramatel 452 M console, \"Interface TV\" output (RS-485, 54-byte frames)",
  summary: "Stramatel 452 M, Interface TV output",
  maker: "Stramatel",
  model: "452 M",
  wiring: "The console's \"Interface TV\" output, RS-485, on a DIN-5 cable, into a USB-RS-485 adapter (the bridge only listens: "
    + "Tx+ and Tx− to the adapter's D+ and D−, ground to GND; adapters name D+/D− A or B either way round, so if nothing decodes, swap them). "
    + "The cable's colours differ between manual revisions (one: blue ground, white Tx+, yellow Tx−, red not connected): check with a meter. 19200 baud, 8 data bits, no parity, "
    + "1 stop bit; one newer generation sends at 38400 with other sport codes (set baudRate and sportCodes).",
  serialDefaults: { baudRate: 19200, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "full",
  sports: readSports,
  optionsSchema,
  sportProblems: unreadFields,
  example: [
    "protocol: stramatel-452m",
    "serial:",
    "  path: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0",
    "options:",
    "  sportCodes: { \"0x36\": volleyball }"
  ].join("\n"),
  recognise: { sportFamilies },
  learn: stramatelLearning,
  makeDecoder(options): Decoder {
    const stats = emptyStats()
    const place = layoutNameOf(options.sport)
    const byCode = layoutsByCode(options)
    const scanner = makeFrameScanner((bytes) => stats.skippedBytes += bytes)
    const batch = new ReadingBatch()

    // Frames of other codes (player names, individual points, another sport) share the bus: skipped, not bad.
    const onFrame = (buffer: Uint8Array, offset: number, startedAt: number) => {
      const code = byCode[buffer[offset + 1]!]
      if (code === undefined || (place !== undefined && code.name !== place)) {
        stats.skippedBytes += frameLength
      } else if (place === undefined) {
        // A sport frame at a place whose sport no layout reads (set by the service, not the config).
        stats.badFrames++
      } else {
        batch.read(stats, () => readFrame(buffer, offset, code.layout, startedAt))
      }
    }

    return {
      stats,
      push(chunk, receivedAt) {
        scanner.push(chunk, receivedAt, onFrame)
        return batch.take()
      }
    }
  }
}
