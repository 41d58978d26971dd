import mqttPacket, { type Packet } from "mqtt-packet"
import { PassThrough } from "node:stream"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MqttArrivals, packetBytes } from "./mqtt-arrivals.ts"

const t0 = 1_700_000_000_000
const publish = (messageId: number, payload: string): Packet => ({
  cmd: "publish", qos: 1, dup: false, retain: false, topic: "zigbee2mqtt/remote", payload: Buffer.from(payload), messageId
})
/** The packet as the broker writes it, and as mqtt-packet's parser gives it to mqtt.js (with its length). */
const wire = (packet: Packet) => {
  const bytes = mqttPacket.generate(packet)
  let parsed: Packet | undefined
  const parser = mqttPacket.parser({ protocolVersion: 4 })
  parser.on("packet", (p) => (parsed = p))
  parser.parse(bytes)
  return { bytes, parsed: parsed! }
}
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe("MqttArrivals", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(t0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("a packet's size on the wire counts its fixed header", () => {
    for (const payload of ["x", "y".repeat(200), "z".repeat(20_000)]) {
      const { bytes, parsed } = wire(publish(1, payload))
      expect(packetBytes(parsed.length!)).toBe(bytes.length)
    }
  })

  it("stamps each packet with the arrival of the chunk its last byte came in, however late mqtt.js takes it", async () => {
    const arrivals = new MqttArrivals()
    const socket = new PassThrough()
    const relayed: Array<Buffer> = []
    arrivals.watch(socket).on("data", (chunk: Buffer) => relayed.push(chunk))
    const [a, b, c] = [wire(publish(1, "first")), wire(publish(2, "second")), wire(publish(3, "third"))]
    const split = 4
    socket.write(Buffer.concat([a.bytes, b.bytes.subarray(0, split)]))
    await turn()
    vi.setSystemTime(t0 + 100)
    socket.write(Buffer.concat([b.bytes.subarray(split), c.bytes]))
    await turn()
    vi.setSystemTime(t0 + 900) // mqtt.js takes them later, one by one
    const stamps = [a, b, c].map(({ parsed }) => {
      arrivals.taken(parsed)
      return arrivals.arrivalOf(parsed)
    })
    expect(stamps).toEqual([t0, t0 + 100, t0 + 100])
    expect(Buffer.concat(relayed)).toEqual(Buffer.concat([a.bytes, b.bytes, c.bytes]))
  })

  it("gives no stamp for a packet other than the last taken, nor past what was read; a new connection counts afresh", async () => {
    const arrivals = new MqttArrivals()
    const a = wire(publish(1, "first"))
    arrivals.watch(new PassThrough()).resume()
    arrivals.taken(a.parsed)
    expect(arrivals.arrivalOf(a.parsed)).toBeUndefined()
    const socket = new PassThrough()
    arrivals.watch(socket).resume()
    socket.write(a.bytes)
    await turn()
    expect(arrivals.arrivalOf(a.parsed)).toBeUndefined()
    arrivals.taken(a.parsed)
    expect(arrivals.arrivalOf(a.parsed)).toBe(t0)
    expect(arrivals.arrivalOf(wire(publish(2, "other")).parsed)).toBeUndefined()
  })
})
