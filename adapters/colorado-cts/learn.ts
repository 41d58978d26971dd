import { blockIndent, type ByteRange, type FoundField, type LayoutLearning, spanText } from "../layout-learning.ts"
import { protocolHead } from "../shared/learn-text.ts"
import { absent, moduleDigits, PacketAssembler, type PacketSink } from "./framing.ts"
import { channels, moduleText } from "./modules.ts"
import type { FieldName } from "./options.ts"

/** `channel 20 digits 0-3`: a range as the technician finds it in the options. */
const describeRange = (range: ByteRange): string => `channel ${range.kind} digits ${spanText(range)}`

/** The options key a noted field goes under: the clock is water polo's `gameClock`. */
const optionOf = (field: FoundField["field"]): FieldName => (field === "clock" ? "gameClock" : field)

/**
 * `learn` on a Colorado console: each channel's module as the board shows it after each digit packet
 * (the positions a packet carries over the ones before: the clock sends tenths alone between whole
 * seconds), one character per digit position; a field is a channel and a run of positions.
 */
export const coloradoLearning: LayoutLearning = {
  frames(chunks, add) {
    const stats = { skippedBytes: 0, interrupted: 0 }
    const assembler = new PacketAssembler(stats)
    const shown = Array.from({ length: channels }, () => new Array<number>(moduleDigits).fill(absent))
    const sink: PacketSink = {
      packet(packet) {
        if (packet.format) return
        const module = shown[packet.channel]!
        packet.digits.forEach((d, position) => {
          if (d !== absent) module[position] = d
        })
        add(String(packet.channel), packet.startedAt, moduleText({ running: packet.running, digits: module }))
      },
      malformed() {}
    }
    for (const chunk of chunks) assembler.push(chunk.bytes, chunk.receivedAt, sink)
  },
  kindWord: "channel",
  framesWord: "digit packets",
  positions: "Positions are the digits of each channel's module, 0–7 from the left, per channel (the module number the console sends).",
  describeRange,
  scoreGrowth: "both",
  fixedPlaces: false,
  // A game clock is water polo's: the block is checked with that sport, where every field may be read.
  sportMatters: true,
  optionsBlock(found) {
    const options = Object.fromEntries(found.map((f) => [optionOf(f.field), { channel: Number(f.block.kind), digits: spanText(f.block) }]))
    const lines = found.map((f) => `${blockIndent}  ${optionOf(f.field)}: { channel: ${f.block.kind}, digits: "${spanText(f.block)}" }`)
    return {
      _tag: "block",
      choices: [{ options, lines: [...protocolHead("colorado-cts"), ...lines], sport: "waterpolo" }],
      notes: []
    }
  }
}
