import type { MqttClient } from "mqtt"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { HeldMessages } from "./held-messages.ts"
import { MqttArrivals } from "./mqtt-arrivals.ts"
import type { ClientEvent } from "./mqtt-link-events.ts"
import { type MqttMessage, receiveMessages } from "./mqtt-message.ts"
import { receivedAsOf, Redeliveries } from "./redeliveries.ts"

type Packet = Parameters<MqttClient["handleMessage"]>[0]

const t0 = 1_700_000_000_000
const topic = "zigbee2mqtt/remote"
const publish = (overrides: Partial<Packet> = {}): Packet => ({
  cmd: "publish",
  qos: 1,
  dup: false,
  retain: false,
  topic,
  payload: Buffer.from(`{"action":"single"}`),
  messageId: 7,
  ...overrides
})

const setUp = (held = new HeldMessages(null)) => {
  const events: Array<ClientEvent> = []
  const delivered: Array<MqttMessage> = []
  // No connection watched: every arrival is stamped when mqtt.js hands the packet over.
  const handle = receiveMessages(new MqttArrivals(), held, (event) => events.push(event), (m) => delivered.push(m))
  const callbacks = { count: 0 }
  const receive = (packet: Packet) => handle(packet, () => callbacks.count++)
  return { events, delivered, callbacks, receive }
}

describe("receiveMessages", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(t0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("makes a QoS 1 PUBLISH a message named as the broker knows it, acknowledged once, when the consumer says", () => {
    const r = setUp()
    r.receive(publish())
    const [m] = r.delivered
    expect(m).toMatchObject({ topic, receivedAt: t0, retained: false, redelivered: false })
    expect(Buffer.from(m!.payload).toString()).toBe(`{"action":"single"}`)
    expect(m!.receivedAs).toBe(receivedAsOf(7, Redeliveries.identity(topic, Buffer.from(`{"action":"single"}`))))
    expect(m!.held).toBeUndefined()
    expect(r.callbacks.count).toBe(0)
    m!.ack()
    m!.ack()
    expect(r.callbacks.count).toBe(1)
  })

  it("a QoS 0 message has no name to store, and a retained one says so", () => {
    const r = setUp()
    r.receive(publish({ qos: 0, messageId: undefined, retain: true }))
    expect(r.delivered[0]!.receivedAs).toBeUndefined()
    expect(r.delivered[0]!.retained).toBe(true)
  })

  it("stamps each message of a burst that came within one millisecond a millisecond apart", () => {
    const r = setUp()
    for (const messageId of [1, 2, 3]) r.receive(publish({ messageId }))
    expect(r.delivered.map((m) => m.receivedAt)).toEqual([t0, t0 + 1, t0 + 2])
  })

  it("drops a redelivery of a message already acknowledged, acknowledging it again; one never acknowledged is delivered", () => {
    const r = setUp()
    r.receive(publish())
    r.receive(publish({ dup: true }))
    expect(r.delivered).toHaveLength(2)
    expect(r.delivered[1]!.redelivered).toBe(true)
    r.delivered[1]!.ack()
    r.receive(publish({ dup: true }))
    expect(r.delivered).toHaveLength(2)
    expect(r.callbacks.count).toBe(2)
    expect(r.events).toEqual([{ _tag: "redeliveryDropped", topic }])
  })

  it("marks what the broker held for a resumed session, since when it was last heard", () => {
    const held = new HeldMessages(t0 - 30_000)
    held.connected(true, t0)
    const r = setUp(held)
    r.receive(publish())
    expect(r.delivered[0]!.held).toEqual({ since: t0 - 30_000 })
  })
})
