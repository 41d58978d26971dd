import { blockIndent, type LayoutLearning } from "../layout-learning.ts"
import { fieldRangeText, fieldsOption, latin1, protocolHead } from "../shared/learn-text.ts"
import { codeText } from "../shared/field-ranges.ts"
import { defaultMaxPacketBytes, PacketSplitter } from "./framing.ts"
import { proline } from "./variants.ts"

/** A packet letter as typed (`H`), else its byte in hex. */
const letterText = (byte: number): string => (byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : codeText(byte))

/**
 * `learn` on a Fair-Play console: STX…ETX packets by type letter; `fields` moves any field. The two
 * packet variants differ in length and penalty slots: the rink one (default) is tried first, then ProLine.
 */
export const fairplayLearning: LayoutLearning = {
  frames(chunks, add) {
    const splitter = new PacketSplitter(defaultMaxPacketBytes, { overlong: 0, skippedBytes: 0 })
    for (const chunk of chunks) {
      splitter.push(chunk.bytes, chunk.receivedAt, (packet, length, startedAt) => {
        if (length > 2) add(letterText(packet[1]!), startedAt, latin1(packet, 0, length))
      })
    }
  },
  kindWord: "packet type",
  framesWord: "frames",
  positions: "Positions count bytes from the STX = 0, per packet type (letter).",
  describeRange: fieldRangeText,
  scoreGrowth: "both",
  fixedPlaces: false,
  sportMatters: true,
  optionsBlock(found) {
    const { fields, line } = fieldsOption(found)
    const head = protocolHead("fairplay-mp70")
    return {
      _tag: "block",
      choices: [
        { options: { fields }, lines: [...head, line], sport: "hockey" },
        { options: { variant: proline.name, fields }, lines: [...head, `${blockIndent}  variant: ${proline.name}`, line], sport: "hockey" }
      ],
      notes: []
    }
  }
}
