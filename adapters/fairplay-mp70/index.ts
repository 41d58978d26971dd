import { ReadingBatch } from "../shared/reading-batch.ts"
import { type Decoder, emptyStats, type ProtocolDefinition } from "../decoder.ts"
import { defaultMaxPacketBytes, PacketSplitter } from "./framing.ts"
import { type FairPlayOptions, layoutProblem, optionsSchema, overtimePeriodOf, regulationPeriods, resolveLayout } from "./options.ts"
import { readClock, readState } from "./packet-reader.ts"

export type { FairPlayOptions } from "./options.ts"

/** Type letters (byte 1): `C` clock, `H` game state. */
const clockPacket = 0x43
const statePacket = 0x48

/** Trans-Lux Fair-Play MP-70 / MP-50 consoles' RS-232 "ProLine" output. */
export const fairplayMp70: ProtocolDefinition<FairPlayOptions> = {
  name: "fairplay-mp70",
  description: "Trans-Lux Fair-Play MP-70/MP-50 console, RS-232 \"ProLine\" output (STX … ETX packets: C clock, H score and period)",
  serialDefaults: { baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
  // An H packet carries the whole score and period; a C packet only the clock, which is never a score.
  updates: "full",
  sports: Object.keys(regulationPeriods),
  optionsSchema,
  makeDecoder(options): Decoder {
    const layout = resolveLayout(options)
    const problem = layoutProblem(layout)
    // The config loader rejects these with the option named; this only guards direct callers.
    if (problem !== undefined) throw new RangeError(`fairplay-mp70 options.${problem.path.join(".")}: ${problem.issue}`)
    const { minLength, positions } = layout
    const overtimePeriod = overtimePeriodOf(options.sport, options.overtimePeriod)
    const stats = emptyStats()
    // Never below minLength, or no packet could ever be read.
    const requested = Number.isInteger(options.maxFrameBytes) ? options.maxFrameBytes! : defaultMaxPacketBytes
    const splitter = new PacketSplitter(Math.max(requested, minLength), stats)
    const batch = new ReadingBatch()

    const onPacket = (packet: Uint8Array, length: number, startedAt: number) => {
      const type = packet[1]
      // Other packet types (other sports or firmware) are not errors: skipped, like bus traffic.
      if (type !== clockPacket && type !== statePacket) {
        stats.skippedBytes += length
        return
      }
      if (length < minLength) {
        stats.badFrames++
        return
      }
      batch.read(stats, () =>
        type === clockPacket
          ? readClock(packet, positions, startedAt)
          : readState(packet, positions, overtimePeriod, startedAt)
      )
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
