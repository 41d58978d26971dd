/**
 * Bounded newline framing for text protocols. The stock serialport
 * ReadlineParser keeps an unbounded buffer, so a line that never ends would
 * grow memory for as long as the daemon runs; this one holds at most
 * `maxLineBytes` and drops anything longer.
 */
export const defaultMaxLineBytes = 4096

const newline = 0x0a
const carriageReturn = 0x0d

export interface LineSplitter {
  /** Complete, non-empty lines ended by this chunk, without `\n` or a trailing `\r`. */
  push(chunk: Uint8Array): Array<string>
}

export const makeLineSplitter = (options: {
  readonly maxLineBytes?: number | undefined
  /** Called once per line discarded for exceeding `maxLineBytes`. */
  readonly onOverlong: () => void
}): LineSplitter => {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes
  // One spare byte so a line of exactly `maxLineBytes` plus its `\r` still fits.
  const buffer = new Uint8Array(maxLineBytes + 1)
  const text = new TextDecoder("utf-8")
  let length = 0
  // After an overlong line, everything up to the next newline belongs to it.
  let discarding = false

  const complete = (lines: Array<string>) => {
    const end = length > 0 && buffer[length - 1] === carriageReturn ? length - 1 : length
    if (discarding || end > maxLineBytes) {
      if (!discarding) options.onOverlong()
    } else if (end > 0) {
      lines.push(text.decode(buffer.subarray(0, end)))
    }
    length = 0
    discarding = false
  }

  const append = (part: Uint8Array) => {
    if (discarding) return
    if (length + part.length > buffer.length) {
      options.onOverlong()
      discarding = true
      length = 0
      return
    }
    buffer.set(part, length)
    length += part.length
  }

  return {
    push(chunk) {
      const lines: Array<string> = []
      let start = 0
      while (start < chunk.length) {
        const end = chunk.indexOf(newline, start)
        if (end === -1) {
          append(chunk.subarray(start))
          break
        }
        append(chunk.subarray(start, end))
        complete(lines)
        start = end + 1
      }
      return lines
    }
  }
}
