/**
 * `SOH addr STX 'G' d d data ETX LRC`. Data is ASCII (digits, blanks,
 * letters) and flag bytes with bit 7 set, so no control byte occurs inside a
 * frame, and the LRC is never below 0x20: every SOH starts a frame, and a SOH
 * before a frame's LRC means that frame was cut off.
 */
export const SOH = 0x01
export const STX = 0x02
export const ETX = 0x03
/** The message group byte after STX. */
export const group = 0x47 // 'G'

/** SOH, address, STX, group, two type digits, ETX, LRC: a frame with no data. */
export const shortestFrame = 8

/**
 * XOR of `bytes[from, to)`, bit 7 dropped, lifted by 0x20 when it would be a
 * control byte. Bit 7 of the data is therefore not protected by it.
 */
export const lrcOf = (bytes: Uint8Array, from: number, to: number): number => {
  let lrc = 0
  for (let i = from; i < to; i++) lrc ^= bytes[i]!
  lrc &= 0x7f
  return lrc < 0x20 ? lrc + 0x20 : lrc
}

/** The LRC covers the address through ETX: every byte after SOH but the LRC itself. */
export const hasValidLrc = (frame: Uint8Array, length: number): boolean =>
  length >= 3 && frame[length - 1] === lrcOf(frame, 1, length - 1)

export interface FramingStats {
  overlong: number
  skippedBytes: number
}

/** Calls `onFrame(buffer, length, startedAt)` per complete frame; the buffer is reused, read it before returning. */
export type OnFrame = (frame: Uint8Array, length: number, startedAt: number) => void

export interface FrameSplitter {
  push(chunk: Uint8Array, receivedAt: number, onFrame: OnFrame): void
}

/** Waiting for SOH; anything else is skipped. */
const between = 0
/** After SOH, until ETX. */
const body = 1
/** After ETX: the next byte is the LRC. */
const lrcNext = 2

/**
 * Splits a byte stream into whole frames (SOH through LRC), each stamped with
 * the receive time of the chunk that brought its SOH. Bounded: a frame longer
 * than `capacity` bytes is dropped (`overlong`) and the rest of it skipped up
 * to the next SOH, so a line that never sends ETX cannot grow memory.
 */
export const makeFrameSplitter = (capacity: number, stats: FramingStats): FrameSplitter => {
  const buffer = new Uint8Array(capacity)
  let length = 0
  let state: typeof between | typeof body | typeof lrcNext = between
  let startedAt = 0

  const start = (receivedAt: number) => {
    buffer[0] = SOH
    length = 1
    state = body
    startedAt = receivedAt
  }

  return {
    push(chunk, receivedAt, onFrame) {
      for (const byte of chunk) {
        if (byte === SOH) {
          // A frame cut off before its LRC: its bytes were garbage after all.
          if (state !== between) stats.skippedBytes += length
          start(receivedAt)
        } else if (state === between) {
          stats.skippedBytes++
        } else if (length === capacity) {
          stats.overlong++
          stats.skippedBytes += length + 1
          state = between
        } else {
          buffer[length++] = byte
          if (state === lrcNext) {
            state = between
            onFrame(buffer, length, startedAt)
          } else if (byte === ETX) {
            state = lrcNext
          }
        }
      }
    }
  }
}
