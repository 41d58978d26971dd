export const SYN = 0x16
export const SOH = 0x01
export const STX = 0x02
export const EOT = 0x04
export const ETB = 0x17

export const defaultMaxFrameBytes = 4096

export interface FramingStats {
  overlong: number
  skippedBytes: number
}

/**
 * Splits a byte stream into frame bodies (the bytes between SYN and ETB).
 * Bounded: it never holds more than `maxFrameBytes` (SYN and ETB included);
 * a longer frame is dropped, so a line that loses its ETB cannot grow memory.
 * A SYN inside a frame means the previous one was cut off: restart there.
 */
export class FrameSplitter {
  readonly #buffer: Uint8Array
  readonly #stats: FramingStats
  #length = 0
  #inFrame = false

  constructor(maxFrameBytes: number, stats: FramingStats) {
    this.#buffer = new Uint8Array(Math.max(0, maxFrameBytes - 2))
    this.#stats = stats
  }

  push(chunk: Uint8Array): Array<Uint8Array> {
    const bodies: Array<Uint8Array> = []
    for (const byte of chunk) {
      if (byte === SYN) {
        if (this.#inFrame) this.#stats.skippedBytes += this.#length + 1
        this.#inFrame = true
        this.#length = 0
      } else if (!this.#inFrame) {
        this.#stats.skippedBytes++
      } else if (byte === ETB) {
        bodies.push(this.#buffer.slice(0, this.#length))
        this.#inFrame = false
      } else if (this.#length === this.#buffer.length) {
        // The rest of this frame is skipped like any garbage until the next SYN.
        this.#stats.overlong++
        this.#stats.skippedBytes++
        this.#inFrame = false
      } else {
        this.#buffer[this.#length++] = byte
      }
    }
    return bodies
  }
}
