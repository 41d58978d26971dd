/**
 * `struct input_event` framing. The record is `struct timeval` (two longs),
 * `u16 type`, `u16 code`, `s32 value`: 24 bytes for 64-bit userspace, 16 for
 * 32-bit. A read may end mid-record, so the tail is kept for the next chunk.
 */
export type RecordBytes = 24 | 16

export interface InputRecord {
  /** Kernel timestamp in ms, or NaN when the timeval is impossible. */
  readonly at: number
  readonly type: number
  readonly code: number
  readonly value: number
}

export const EV_SYN = 0
export const EV_KEY = 1

export const makeRecordReader = (recordBytes: RecordBytes) => {
  const pending = new Uint8Array(recordBytes)
  let pendingLength = 0
  const longBytes = recordBytes / 2 - 4

  const parse = (bytes: Uint8Array): InputRecord => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, recordBytes)
    const seconds = longBytes === 8 ? Number(view.getBigInt64(0, true)) : view.getInt32(0, true)
    const micros = longBytes === 8 ? Number(view.getBigInt64(8, true)) : view.getInt32(4, true)
    const valid = seconds >= 0 && micros >= 0 && micros < 1_000_000 && Number.isSafeInteger(seconds * 1000)
    return {
      at: valid ? seconds * 1000 + Math.floor(micros / 1000) : Number.NaN,
      type: view.getUint16(2 * longBytes, true),
      code: view.getUint16(2 * longBytes + 2, true),
      value: view.getInt32(2 * longBytes + 4, true)
    }
  }

  return (chunk: Uint8Array): Array<InputRecord> => {
    const records: Array<InputRecord> = []
    let at = 0
    if (pendingLength > 0) {
      const take = Math.min(recordBytes - pendingLength, chunk.length)
      pending.set(chunk.subarray(0, take), pendingLength)
      pendingLength += take
      at = take
      if (pendingLength < recordBytes) return records
      records.push(parse(pending))
      pendingLength = 0
    }
    for (; at + recordBytes <= chunk.length; at += recordBytes) records.push(parse(chunk.subarray(at, at + recordBytes)))
    pending.set(chunk.subarray(at), 0)
    pendingLength = chunk.length - at
    return records
  }
}
