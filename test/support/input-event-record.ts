const EV_SYN = 0
const EV_KEY = 1

/** One 64-bit `struct input_event`: int64 sec, int64 usec, u16 type, u16 code, s32 value, little-endian. */
export const inputRecord = (ms: number, type: number, code: number, value: number): Buffer => {
  const buffer = Buffer.alloc(24)
  buffer.writeBigInt64LE(BigInt(Math.floor(ms / 1000)), 0)
  buffer.writeBigInt64LE(BigInt((ms % 1000) * 1000 + 250), 8)
  buffer.writeUInt16LE(type, 16)
  buffer.writeUInt16LE(code, 18)
  buffer.writeInt32LE(value, 20)
  return buffer
}

/** A key edge as the kernel reports it: the key record (1 press, 0 release, 2 repeat), then the SYN_REPORT closing the packet. */
export const keyEdge = (ms: number, code: number, value: 0 | 1 | 2): Buffer =>
  Buffer.concat([inputRecord(ms, EV_KEY, code, value), inputRecord(ms, EV_SYN, 0, 0)])
