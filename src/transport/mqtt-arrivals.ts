import { Duplex } from "node:stream"
import type { MqttClient } from "mqtt"
import mqttPacket from "mqtt-packet"

/**
 * When each PUBLISH really arrived. mqtt.js handles one incoming packet at a time and the next
 * only after the previous one's acknowledgement, which the daemon gives once the message is on
 * disk; meanwhile it stops reading its socket. Stamped where mqtt.js first sees it, a press that
 * follows another within an fsync would be stamped when the disk let go of the first, up to half
 * a second late on a slow card, and its highlight would start that much late.
 *
 * So the connection's bytes are read as they come, each PUBLISH is noted with its arrival time,
 * and the bytes are handed on to mqtt.js, which takes them as before. Up to `bufferBytes` wait in
 * memory; beyond that the socket is paused, as mqtt.js would have done (later messages are then
 * stamped when read, as before).
 */
export class MqttArrivals {
  private readonly pending: Array<{ readonly topic: string; readonly at: number }> = []

  /** The arrival time of the next PUBLISH mqtt.js hands over, if it is the one noted (same topic). */
  take(topic: string): number | undefined {
    const next = this.pending.shift()
    if (next?.topic === topic) return next.at
    // Out of step (a packet the parser here did not see): start again from what comes next.
    this.pending.length = 0
    return undefined
  }

  /** Wraps mqtt.js's stream builder (it has no other hook for the raw connection). */
  watch(client: MqttClient, bufferBytes = 256 * 1024): void {
    const internals = client as unknown as { streamBuilder: (client: MqttClient) => Duplex }
    const build = internals.streamBuilder
    internals.streamBuilder = (c) => {
      // A new connection: mqtt.js drops what it had parsed of the old one, and so do we.
      this.pending.length = 0
      return this.tap(build(c), bufferBytes)
    }
  }

  private tap(socket: Duplex, bufferBytes: number): Duplex {
    const parser = mqttPacket.parser({ protocolVersion: 4 })
    let chunkAt = 0
    parser.on("packet", (packet) => {
      if (packet.cmd === "publish") this.pending.push({ topic: packet.topic, at: chunkAt })
    })
    // A packet that does not parse here is mqtt.js's to report; the stamps just stop matching.
    parser.on("error", () => {})
    const relay: Duplex = new Duplex({
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
      chunkAt = Date.now()
      parser.parse(chunk)
      if (!relay.push(chunk)) socket.pause()
    })
    socket.on("end", () => relay.push(null))
    socket.on("error", (error) => relay.destroy(error))
    socket.on("close", () => relay.destroy())
    return relay
  }
}
