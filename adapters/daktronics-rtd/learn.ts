import { blockIndent, type Block, type ByteRange, fieldWord, type FoundField, type LayoutLearning, type ObservedField, spanText } from "../layout-learning.ts"
import { RTD_BUFFER_SIZE, RtdBuffer } from "./buffer.ts"
import { hasValidChecksum } from "./checksum.ts"
import { defaultMaxFrameBytes, FrameSplitter } from "./framing.ts"
import { type Field, common, volleyball } from "./layout.ts"
import { parseMessage } from "./message.ts"

const describeRange = (r: ByteRange): string => `${r.first === r.last ? "offset" : "offsets"} ${spanText(r)}`

interface DaktronicsPlace {
  readonly what: string
  readonly fields: Readonly<Partial<Record<ObservedField, Field>>>
}

const everySport: DaktronicsPlace = {
  what: "every sport",
  fields: { home: common.homeScore, away: common.awayScore, period: common.period, clock: common.clock }
}

const volleyballGame: DaktronicsPlace = {
  what: "volleyball with volleyballPoints: game",
  fields: { home: volleyball.homeCurrentGame, away: volleyball.awayCurrentGame, period: common.period, clock: common.clock }
}

const within = (r: ByteRange, place: Field | undefined) => place !== undefined && r.first >= place.offset && r.last <= place.offset + place.length - 1

const fits = (place: DaktronicsPlace, found: ReadonlyArray<FoundField>) => found.every((f) => within(f.range, place.fields[f.field]))

const placeText = (p: Field) => `${p.offset}-${p.offset + p.length - 1}`

/** Which of the adapter's RTD layouts the offsets are: there is no option to move a field. */
const daktronicsBlock = (found: ReadonlyArray<FoundField>): Block => {
  if (fits(everySport, found)) {
    return {
      _tag: "block",
      choices: [{
        options: {},
        lines: [`${blockIndent}protocol: daktronics-rtd`, `${blockIndent}# no options: these are the fields the adapter reads for every sport`],
        sport: "basketball"
      }],
      notes: [
        "These are the adapter's fields for every sport (score 107-110 / 111-114, period 141-142, clock 0-4): "
          + "no options; set the place's sport (e.g. sport: basketball)."
      ]
    }
  }
  if (fits(volleyballGame, found)) {
    return {
      _tag: "block",
      choices: [{
        options: { volleyballPoints: "game" },
        lines: [`${blockIndent}protocol: daktronics-rtd`, `${blockIndent}options: { volleyballPoints: game }`],
        sport: "volleyball"
      }],
      notes: ["These are the adapter's volleyball current-game fields (239-240 / 259-260): set sport: volleyball with the option above."]
    }
  }
  const misfits = found.filter((f) => !within(f.range, everySport.fields[f.field]) && !within(f.range, volleyballGame.fields[f.field]))
  return {
    _tag: "none",
    why: [
      ...misfits.map((f) => {
        const at = [everySport, volleyballGame].map((p) => p.fields[f.field]).filter((p) => p !== undefined).map(placeText)
        return `${fieldWord(f.field)} at ${describeRange(f.range)}: the adapter reads it at ${[...new Set(at)].join(" or ")}.`
      }),
      ...(misfits.length === 0 ? ["The fields fit none of the adapter's layouts together (some are every sport's, some volleyball's current-game)."] : []),
      "None of the adapter's layouts reads this console: send the capture to support."
    ]
  }
}

/** `learn` on a Daktronics console: the RTD state buffer after each data frame that changes it, by offset. */
export const daktronicsLearning: LayoutLearning = {
  frames(chunks, add) {
    const splitter = new FrameSplitter(defaultMaxFrameBytes, { overlong: 0, skippedBytes: 0 })
    const buffer = new RtdBuffer()
    for (const chunk of chunks) {
      for (const { body, startedAt } of splitter.push(chunk.bytes, chunk.receivedAt)) {
        if (!hasValidChecksum(body)) continue
        const message = parseMessage(body)
        if (message._tag !== "data") continue
        buffer.apply(message.offset, message.data)
        add("buffer", startedAt, buffer.text(0, RTD_BUFFER_SIZE))
      }
    }
  },
  framesWord: "data frames",
  positions: "Positions are offsets in the console's RTD buffer (0-based).",
  describeRange,
  // The adapter reads right-aligned numbers: a score's range may only grow to the left.
  scoreGrowth: "left",
  fixedPlaces: true,
  sportMatters: true,
  optionsBlock: daktronicsBlock
}
