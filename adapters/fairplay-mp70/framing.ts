export const STX = 0x02
export const ETX = 0x03

export const defaultMaxPacketBytes = 4096

export interface FramingStats {
  overlong: number
  skippedBytes: number
}

/**
 * Called for each complete packet: `buffer[0]` is its STX, `buffer[length - 1]`
 * its ETX. The buffer is reused: read it before returning.
 */
export type OnPacket = (buffer: Uint8Array, length: number, startedAt: number) => void

/**
 * Splits a byte stream into STX … ETX packets, each stamped with the receive
 * time of the chunk that brought its STX (a packet cut across two reads began
 * to show its change at the first).
 *
 * Bounded: a packet is held in a buffer of `capacity` bytes (STX and ETX
 * included); a longer one counts once as `overlong` and the bytes after the
 * limit are skipped until the next STX, so a line that loses its ETX cannot
 * grow memory. An STX inside a packet means the packet was cut off: its bytes
 * are skipped and a new packet starts there. Bytes outside packets are skipped.
 */
export class PacketSplitter {
  readonly #buffer: Uint8Array
  readonly #stats: FramingStats
  #length = 0
  #inPacket = false
  #startedAt = 0

  constructor(capacity: number, stats: FramingStats) {
    // Room for at least the STX and the ETX.
    this.#buffer = new Uint8Array(Math.max(2, capacity))
    this.#stats = stats
  }

  push(chunk: Uint8Array, receivedAt: number, onPacket: OnPacket): void {
    const buffer = this.#buffer
    for (const byte of chunk) {
      if (byte === STX) {
        if (this.#inPacket) this.#stats.skippedBytes += this.#length
        this.#inPacket = true
        this.#startedAt = receivedAt
        buffer[0] = STX
        this.#length = 1
      } else if (!this.#inPacket) {
        this.#stats.skippedBytes++
      } else if (this.#length === buffer.length) {
        this.#stats.overlong++
        this.#stats.skippedBytes++
        this.#inPacket = false
      } else {
        buffer[this.#length++] = byte
        if (byte === ETX) {
          this.#inPacket = false
          onPacket(buffer, this.#length, this.#startedAt)
        }
      }
    }
  }
}
