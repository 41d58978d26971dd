import { frame } from "../../../adapters/daktronics-rtd/encode.ts"
import { concat } from "../../../adapters/shared/seeded-random.ts"
import type { SimulatedConsole } from "./console.ts"
import { type Render, span } from "./daktronics.ts"

/** A console whose one change can be several frames. */
export interface FieldConsole<B> extends SimulatedConsole<B> {
  /** The frames that take the board from the last one shown to `board`, in the order sent. */
  readonly frames: (board: B) => Array<Uint8Array>
}

export type FieldOrder = "as-rendered" | "reversed"

/**
 * A Daktronics console as its RTD output behaves on a real line: every field
 * that changed is a frame of its own, sent back to back (a won tennis game is
 * the game points blanked and the games moved on, in two or more frames; see
 * "One change spans several frames" in the protocol notes). The first board
 * is a full dump; a board that changes nothing re-sends the clock. `order`
 * picks whether the fields go out in layout order or last first, since a
 * console's order is not documented.
 */
export const rtdFieldConsole = <B>(render: Render<B>, order: FieldOrder = "as-rendered"): FieldConsole<B> => {
  let shown: Array<string> | undefined
  const frames = (board: B): Array<Uint8Array> => {
    const buffer = shown === undefined ? Array.from({ length: span }, () => " ") : [...shown]
    const writes: Array<{ readonly offset: number; readonly text: string }> = []
    render(board, (offset, length, value) => {
      const text = (value === undefined ? "" : String(value)).padStart(length, " ")
      if (text.length > length) throw new RangeError(`${text} does not fit in ${length} bytes at ${offset}`)
      writes.push({ offset, text })
      for (let i = 0; i < length; i++) buffer[offset + i] = text[i]!
    })
    const before = shown
    shown = buffer
    if (before === undefined) return [frame(0, buffer.join(""))]
    const changed = writes.filter(({ offset, text }) => before.slice(offset, offset + text.length).join("") !== text)
    if (changed.length === 0) return [frame(0, buffer.slice(0, 5).join(""))]
    if (order === "reversed") changed.reverse()
    return changed.map(({ offset, text }) => frame(offset, text))
  }
  return { protocol: "daktronics-rtd", options: {}, frames, encode: (board) => concat(...frames(board)) }
}
