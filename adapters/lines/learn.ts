import { blockIndent, type Block, type ByteRange, fieldWord, type FoundField, type LayoutLearning, type ObservedField, spanText } from "../layout-learning.ts"
import { makeLineSplitter } from "../shared/line-splitter.ts"

const groupOf = (field: ObservedField, letters: boolean, width: number) => {
  const chars = field === "clock" ? " \\d:." : letters ? " \\dA-Za-z" : " \\d"
  return `(?<${field}>[${chars}]{${width}})`
}

/**
 * A `pattern` reading each field at its columns: `^.{12}(?<home>[ \d]{3})…`.
 * Fixed columns, blanks allowed around the digits (the adapter trims them).
 */
export const linesPattern = (found: ReadonlyArray<FoundField>, letterPeriod: boolean): string => {
  let pattern = "^"
  let column = 0
  for (const f of [...found].sort((a, b) => a.block.first - b.block.first)) {
    const gap = f.block.first - column
    if (gap > 0) pattern += `.{${gap}}`
    pattern += groupOf(f.field, f.field === "period" && letterPeriod, f.block.last - f.block.first + 1)
    column = f.block.last + 1
  }
  return pattern
}

const linesBlock = (found: ReadonlyArray<FoundField>, letterPeriod: boolean): Block => {
  const has = (field: ObservedField) => found.some((f) => f.field === field)
  if (has("home") !== has("away")) {
    const missing = has("home") ? "away" : "home"
    return { _tag: "none", why: [`The lines protocol reads home and guest together: note ${fieldWord(missing)} too at each moment.`] }
  }
  const pattern = linesPattern(found, letterPeriod)
  return {
    _tag: "block",
    choices: [{
      options: { pattern },
      lines: [`${blockIndent}protocol: lines`, `${blockIndent}options:`, `${blockIndent}  pattern: '${pattern.replaceAll("'", "''")}'`],
      sport: "basketball"
    }],
    notes: letterPeriod ? ["The lines protocol reads the period as a number: a line showing a letter there is skipped."] : []
  }
}

/** `learn` on a console that prints text lines at fixed columns: a `pattern` reading each field at its columns. */
export const linesLearning: LayoutLearning = {
  frames(chunks, add) {
    const splitter = makeLineSplitter({ onOverlong: () => undefined })
    for (const chunk of chunks) {
      for (const line of splitter.push(chunk.bytes)) add("line", chunk.receivedAt, line)
    }
  },
  framesWord: "lines",
  positions: "Positions are character columns, counted from 0.",
  describeRange: (r) => `${r.first === r.last ? "column" : "columns"} ${spanText(r)}`,
  scoreGrowth: "both",
  fixedPlaces: false,
  sportMatters: false,
  optionsBlock: linesBlock
}
