import { Duplex } from "node:stream"
import type { Packet } from "mqtt-packet"

/**
 * When each packet really arrived. mqtt.js handles one incoming packet at a time and the next
 * only after the previous one's acknowledgement, which the daemon gives once the message is on
 * disk; meanwhile it stops reading its socket. Stamped where mqtt.js first sees it, a press that
 * follows another within an fsync would be stamped when the disk let go of the first, up to half
 * a second late on a slow card, and its highlight would start that much late.
 *
 * So the connection's bytes are read as they come (the stream handed to mqtt.js's client by its
 * stream builder, see mqtt-client.ts), each chunk noted with its byte range and arrival time, and
 * handed on to mqtt.js, which takes them as before. mqtt.js takes the packets in the order of
 * their bytes and says so for each ('packetreceive'), with its length: the byte where a packet
 * ends says in which chunk it was complete, and that chunk's arrival is the packet's. Up to
 * `bufferBytes` wait in memory; beyond that the socket is paused, as mqtt.js would have done
 * (later packets are then stamped when read, as before).
 */
export class MqttArrivals {
  /** The chunks of the current connection not yet wholly taken: where each ends (bytes from its start), when it came. */
  readonly #chunks: Array<{ readonly end: number; readonly at: number }> = []
  #read = 0
  #taken = 0
  #lastPacket: Packet | undefined
  #lastAt: number | undefined
  /** The connection's clock (Effect's Clock in the daemon), which every time of its messages is read on. */
  readonly now: () => number

  constructor(now: () => number = () => Date.now()) {
    this.now = now
  }

  /** The stream mqtt.js reads instead of `socket`, a new connection's: counting starts again from its first byte. */
  watch(socket: Duplex, bufferBytes = 256 * 1024): Duplex {
    this.#chunks.length = 0
    this.#read = this.#taken = 0
    this.#lastPacket = this.#lastAt = undefined
    return relay(socket, bufferBytes, (chunk) => {
      this.#read += chunk.length
      this.#chunks.push({ end: this.#read, at: this.now() })
    })
  }

  /** mqtt.js took its next packet of the current connection ('packetreceive'). */
  taken(packet: Packet): void {
    this.#taken += packetBytes(packet.length ?? 0)
    while (this.#chunks.length > 0 && this.#chunks[0]!.end < this.#taken) this.#chunks.shift()
    this.#lastPacket = packet
    // Past what was read: out of step (never seen so far), so no stamp rather than a wrong one.
    this.#lastAt = this.#taken <= this.#read ? this.#chunks[0]?.at : undefined
  }

  /** When `packet`'s last byte arrived, if it is the packet mqtt.js took last. */
  arrivalOf(packet: Packet): number | undefined {
    return packet === this.#lastPacket ? this.#lastAt : undefined
  }
}

/** A packet's size on the wire: its fixed header (one byte and 1–4 of remaining length), then the rest. */
export const packetBytes = (remainingLength: number): number =>
  1 + (remainingLength < 128 ? 1 : remainingLength < 16_384 ? 2 : remainingLength < 2_097_152 ? 3 : 4) + remainingLength

/** Reads `socket` as its bytes come, telling `arrived` of each chunk, and hands them on as they are read. */
const relay = (socket: Duplex, bufferBytes: number, arrived: (chunk: Buffer) => void): Duplex => {
  const stream: Duplex = new Duplex({
    highWaterMark: bufferBytes,
    read: () => {
      socket.resume()
    },
    // Handed on at once, as mqtt.js would write to the socket itself (a packet comes in several
    // small writes); only a full socket buffer holds the next one back.
    writev: (chunks, callback) => {
      socket.cork()
      let ok = true
      for (const { chunk, encoding } of chunks) ok = socket.write(chunk, encoding)
      socket.uncork()
      if (ok) callback()
      else socket.once("drain", () => callback())
    },
    final: (callback) => {
      socket.end(callback)
    },
    destroy: (error, callback) => {
      socket.destroy(error ?? undefined)
      callback(error)
    }
  })
  socket.on("data", (chunk: Buffer) => {
    arrived(chunk)
    if (!stream.push(chunk)) socket.pause()
  })
  socket.on("end", () => stream.push(null))
  socket.on("error", (error) => stream.destroy(error))
  socket.on("close", () => stream.destroy())
  return stream
}
