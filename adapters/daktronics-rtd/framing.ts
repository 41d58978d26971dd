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

/** A frame's body (between SYN and ETB) and the receive time of the chunk that brought its SYN. */
export interface SplitFrame {
  readonly body: Uint8Array
  readonly startedAt: number
}

/**
 * Splits a byte stream into frame bodies (the bytes between SYN and ETB).
 * Each is stamped with the arrival of its first byte: a frame cut across two
 * reads began to show its change when its first part arrived.
 * Bounded: it never holds more than `maxFrameBytes` (SYN and ETB included);
 * a longer frame is dropped, so a line that loses its ETB cannot grow memory.
 * A SYN inside a frame means the previous one was cut off: restart there.
 */
export class FrameSplitter {
  readonly #buffer: Uint8Array
  readonly #stats: FramingStats
  #length = 0
  #inFrame = false
  #startedAt = 0

  constructor(maxFrameBytes: number, stats: FramingStats) {
    this.#buffer = new Uint8Array(Math.max(0, maxFrameBytes - 2))
    this.#stats = stats
  }

  push(chunk: Uint8Array, receivedAt = 0): Array<SplitFrame> {
    const frames: Array<SplitFrame> = []
    for (const byte of chunk) {
      if (byte === SYN) {
        if (this.#inFrame) this.#stats.skippedBytes += this.#length + 1
        this.#inFrame = true
        this.#length = 0
        this.#startedAt = receivedAt
      } else if (!this.#inFrame) {
        this.#stats.skippedBytes++
      } else if (byte === ETB) {
        frames.push({ body: this.#buffer.slice(0, this.#length), startedAt: this.#startedAt })
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
    return frames
  }
}
