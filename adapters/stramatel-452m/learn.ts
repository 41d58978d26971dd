import type { LayoutLearning } from "../layout-learning.ts"
import { codeText } from "../shared/field-ranges.ts"
import { fieldRangeText, fieldsOption, latin1, protocolHead } from "../shared/learn-text.ts"
import { frameLength, makeFrameScanner } from "./framing.ts"
import { defaultSportCodes } from "./sport-codes.ts"

/** A sport whose layout reads frames of this code by default, to decode with. */
const sportOfCode = (code: string): string =>
  Object.entries(defaultSportCodes).find(([key]) => Number(key) === Number(code))?.[1] ?? "handball"

/** `learn` on a Stramatel console: 54-byte frames by sport code (byte 1); `fields` moves a field of one code. */
export const stramatelLearning: LayoutLearning = {
  frames(chunks, add) {
    const scanner = makeFrameScanner(() => undefined)
    for (const chunk of chunks) {
      scanner.push(chunk.bytes, chunk.receivedAt, (buffer, offset, startedAt) =>
        add(codeText(buffer[offset + 1]!), startedAt, latin1(buffer, offset, offset + frameLength)))
    }
  },
  kindWord: "sport code",
  framesWord: "frames",
  positions: "Positions count bytes from the 0xF8 = 0, per frame sport code (byte 1).",
  describeRange: fieldRangeText,
  // The adapter reads right-aligned numbers: a score's range may only grow to the left.
  scoreGrowth: "left",
  fixedPlaces: false,
  sportMatters: true,
  optionsBlock(found) {
    const { fields, line } = fieldsOption(found)
    const score = found.find((f) => f.field === "home" || f.field === "away") ?? found[0]!
    return { _tag: "block", choices: [{ options: { fields }, lines: [...protocolHead("stramatel-452m"), line], sport: sportOfCode(score.block.kind) }], notes: [] }
  }
}
