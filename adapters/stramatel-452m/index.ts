import { ReadingBatch } from "../shared/reading-batch.ts"
import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { frameLength, makeFrameScanner } from "./framing.ts"
import { readFrame } from "./frame-reader.ts"
import { layoutOf, layouts } from "./layouts.ts"
import { optionsSchema, sportTable, type StramatelOptions } from "./sport-codes.ts"

export type { StramatelOptions } from "./sport-codes.ts"

/** Stramatel 452 M consoles' "Interface TV" output. */
export const stramatel452m: ProtocolDefinition<StramatelOptions> = {
  name: "stramatel-452m",
  description: "Stramatel 452 M console, \"Interface TV\" output (RS-485, 54-byte frames)",
  serialDefaults: { baudRate: 19200, dataBits: 8, parity: "none", stopBits: 1 },
  updates: "full",
  sports: Object.keys(layouts),
  optionsSchema,
  makeDecoder(options): Decoder {
    const stats = emptyStats()
    const sportOf = sportTable(options.sportCodes)
    const layout = layoutOf(options.sport)
    const scanner = makeFrameScanner((bytes) => stats.skippedBytes += bytes)
    const batch = new ReadingBatch()
    let receivedAt = 0

    // Other sports' frames (player names, individual points) share the bus: skipped, not bad.
    const onFrame = (buffer: Uint8Array, offset: number) => {
      if (sportOf[buffer[offset + 1]!] !== options.sport) {
        stats.skippedBytes += frameLength
      } else if (layout === undefined) {
        stats.badFrames++
      } else {
        batch.read(stats, () => readFrame(buffer, offset, layout, receivedAt))
      }
    }

    return {
      stats,
      push(chunk, at) {
        receivedAt = at
        scanner.push(chunk, onFrame)
        return batch.take()
      }
    }
  }
}
