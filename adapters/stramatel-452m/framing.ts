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

export const makeFrameScanner = (onSkipped: (bytes: number) => void): FrameScanner => {
  const buffer = new Uint8Array(capacity)
  let length = 0
  // Where each chunk's bytes begin in the buffer, and when that chunk was received; offsets ascending.
  const chunkStarts: Array<number> = []
  const chunkTimes: Array<number> = []

  const timeAt = (offset: number): number => {
    let i = chunkStarts.length - 1
    while (i > 0 && chunkStarts[i]! > offset) i--
    return chunkTimes[i] ?? 0
  }

  /** Drops the first `count` bytes: the chunk the new first byte came in now starts at 0. */
  const shift = (count: number) => {
    if (count === 0) return
    buffer.copyWithin(0, count, length)
    length -= count
    let drop = 0
    while (drop + 1 < chunkStarts.length && chunkStarts[drop + 1]! <= count) drop++
    if (drop > 0) {
      chunkStarts.splice(0, drop)
      chunkTimes.splice(0, drop)
    }
    if (length === 0) {
      chunkStarts.length = 0
      chunkTimes.length = 0
    } else {
      for (let i = 0; i < chunkStarts.length; i++) chunkStarts[i] = Math.max(0, chunkStarts[i]! - count)
    }
  }

  const scan = (onFrame: OnFrame) => {
    let at = 0
    let skipped = 0
    while (length - at >= frameLength) {
      if (buffer[at] === frameStart && buffer[at + frameLength - 1] === frameEnd) {
        onFrame(buffer, at, timeAt(at))
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
    shift(at)
  }

  return {
    push(chunk, receivedAt, onFrame) {
      let read = 0
      while (read < chunk.length) {
        const take = Math.min(capacity - length, chunk.length - read)
        chunkStarts.push(length)
        chunkTimes.push(receivedAt)
        buffer.set(chunk.subarray(read, read + take), length)
        length += take
        read += take
        scan(onFrame)
      }
    }
  }
}
