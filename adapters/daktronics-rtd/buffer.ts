/** Size of the console's RTD buffer. */
export const RTD_BUFFER_SIZE = 1024

const SPACE = 0x20

/**
 * The console's display state, rebuilt from the changed ranges it sends.
 * Also remembers which bytes any frame has written, because a field still
 * holding the initial spaces means "unknown", not "blank".
 */
export class RtdBuffer {
  readonly #bytes = new Uint8Array(RTD_BUFFER_SIZE).fill(SPACE)
  readonly #written = new Uint8Array(RTD_BUFFER_SIZE)

  /** Writes `data` at `offset`, clipped to the buffer; true when a byte changed. */
  apply(offset: number, data: Uint8Array): boolean {
    let changed = false
    const end = Math.min(RTD_BUFFER_SIZE, offset + data.length)
    for (let at = Math.max(0, offset); at < end; at++) {
      const byte = data[at - offset] ?? SPACE
      if (this.#bytes[at] !== byte) {
        this.#bytes[at] = byte
        changed = true
      }
      this.#written[at] = 1
    }
    return changed
  }

  /** True when every byte of the range has been written by some frame. */
  isWritten(offset: number, length: number): boolean {
    if (offset < 0 || offset + length > RTD_BUFFER_SIZE) return false
    for (let at = offset; at < offset + length; at++) {
      if (this.#written[at] === 0) return false
    }
    return true
  }

  /** The range as text (one character per byte); clipped to the buffer. */
  text(offset: number, length: number): string {
    return String.fromCharCode(...this.#bytes.subarray(Math.max(0, offset), Math.max(0, offset + length)))
  }
}
