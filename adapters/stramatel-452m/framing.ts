/**
 * 54-byte frames, `0xF8` first and `0x0D` last, no checksum. `0xF8` can occur
 * inside data and other console traffic shares the RS-485 bus, so a frame
 * start is only believed when its byte +53 is `0x0D`; bytes that start no
 * such frame are skipped.
 */
export const frameLength = 54
export const frameStart = 0xf8
export const frameEnd = 0x0d

/** Room for a few frames: enough to make progress, never more. */
const capacity = frameLength * 4

export interface FrameScanner {
  /** Calls `onFrame(buffer, offset)` for each complete frame; the buffer is reused, read it before returning. */
  push(chunk: Uint8Array, onFrame: (buffer: Uint8Array, offset: number) => void): void
}

export const makeFrameScanner = (onSkipped: (bytes: number) => void): FrameScanner => {
  const buffer = new Uint8Array(capacity)
  let length = 0

  const scan = (onFrame: (buffer: Uint8Array, offset: number) => void) => {
    let at = 0
    let skipped = 0
    while (length - at >= frameLength) {
      if (buffer[at] === frameStart && buffer[at + frameLength - 1] === frameEnd) {
        onFrame(buffer, at)
        at += frameLength
      } else {
        at++
        skipped++
      }
    }
    // What is left is shorter than a frame; only a frame start is worth keeping.
    while (at < length && buffer[at] !== frameStart) {
      at++
      skipped++
    }
    if (skipped > 0) onSkipped(skipped)
    buffer.copyWithin(0, at, length)
    length -= at
  }

  return {
    push(chunk, onFrame) {
      let read = 0
      while (read < chunk.length) {
        const take = Math.min(capacity - length, chunk.length - read)
        buffer.set(chunk.subarray(read, read + take), length)
        length += take
        read += take
        scan(onFrame)
      }
    }
  }
}
