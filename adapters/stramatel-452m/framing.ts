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

/**
 * Called for each complete frame at `buffer[offset]`, with the receive time of the
 * chunk that brought its `0xF8` (a frame cut across two reads began to show its
 * change at the first). The buffer is reused: read it before returning.
 */
export type OnFrame = (buffer: Uint8Array, offset: number, startedAt: number) => void

export interface FrameScanner {
  push(chunk: Uint8Array, receivedAt: number, onFrame: OnFrame): void
}

export const makeFrameScanner = (onSkipped: (bytes: number) => void): FrameScanner => new ChunkedFrameScanner(onSkipped)

/** The scanner's buffer and when each chunk in it arrived; a class so each step is a method of its own. */
class ChunkedFrameScanner implements FrameScanner {
  private readonly buffer = new Uint8Array(capacity)
  private length = 0
  // Where each chunk's bytes begin in the buffer, and when that chunk was received; offsets ascending.
  private readonly chunkStarts: Array<number> = []
  private readonly chunkTimes: Array<number> = []

  private readonly onSkipped: (bytes: number) => void

  constructor(onSkipped: (bytes: number) => void) {
    this.onSkipped = onSkipped
  }

  push(chunk: Uint8Array, receivedAt: number, onFrame: OnFrame): void {
    let read = 0
    while (read < chunk.length) {
      const take = Math.min(capacity - this.length, chunk.length - read)
      this.chunkStarts.push(this.length)
      this.chunkTimes.push(receivedAt)
      this.buffer.set(chunk.subarray(read, read + take), this.length)
      this.length += take
      read += take
      this.scan(onFrame)
    }
  }

  private timeAt(offset: number): number {
    let i = this.chunkStarts.length - 1
    while (i > 0 && this.chunkStarts[i]! > offset) i--
    return this.chunkTimes[i] ?? 0
  }

  /** Drops the first `count` bytes: the chunk the new first byte came in now starts at 0. */
  private shift(count: number): void {
    if (count === 0) return
    this.buffer.copyWithin(0, count, this.length)
    this.length -= count
    let drop = 0
    while (drop + 1 < this.chunkStarts.length && this.chunkStarts[drop + 1]! <= count) drop++
    if (drop > 0) {
      this.chunkStarts.splice(0, drop)
      this.chunkTimes.splice(0, drop)
    }
    if (this.length === 0) {
      this.chunkStarts.length = 0
      this.chunkTimes.length = 0
    } else {
      for (let i = 0; i < this.chunkStarts.length; i++) this.chunkStarts[i] = Math.max(0, this.chunkStarts[i]! - count)
    }
  }

  private scan(onFrame: OnFrame): void {
    const { buffer } = this
    let at = 0
    let skipped = 0
    while (this.length - at >= frameLength) {
      if (buffer[at] === frameStart && buffer[at + frameLength - 1] === frameEnd) {
        onFrame(buffer, at, this.timeAt(at))
        at += frameLength
      } else {
        at++
        skipped++
      }
    }
    // What is left is shorter than a frame; only a frame start is worth keeping.
    while (at < this.length && buffer[at] !== frameStart) {
      at++
      skipped++
    }
    if (skipped > 0) this.onSkipped(skipped)
    this.shift(at)
  }
}
