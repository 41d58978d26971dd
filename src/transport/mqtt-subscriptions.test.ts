import type { ClientSubscribeCallback } from "mqtt"
import { describe, expect, it } from "vitest"
import type { ClientEvent } from "./mqtt-link-events.ts"
import { MqttSubscriptions, type Subscriber } from "./mqtt-subscriptions.ts"

/** A client that records each SUBSCRIBE; the test answers it as the broker would. */
const fakeClient = () => {
  const sent: Array<{ readonly filters: Array<string>; readonly qos: number; readonly answer: ClientSubscribeCallback }> = []
  const client: Subscriber & { connected: boolean } = {
    connected: false,
    subscribe: (filters, options, answer) => sent.push({ filters, qos: options.qos, answer })
  }
  const grant = (index: number, qos: (filter: string) => 1 | 128 = () => 1) =>
    sent[index]!.answer(null, sent[index]!.filters.map((topic) => ({ topic, qos: qos(topic) })))
  return { client, sent, grant }
}

const setUp = () => {
  const fake = fakeClient()
  const events: Array<ClientEvent> = []
  const subscriptions = new MqttSubscriptions(fake.client, (event) => events.push(event))
  const connect = (sessionPresent: boolean) => {
    fake.client.connected = true
    subscriptions.connected(sessionPresent)
  }
  const close = () => {
    fake.client.connected = false
    subscriptions.closed()
  }
  return { ...fake, events, subscriptions, connect, close }
}

describe("MqttSubscriptions", () => {
  it("sends what was asked for while disconnected at the connect, once, at QoS 1", () => {
    const s = setUp()
    s.subscriptions.want(["venue/+/button"])
    s.subscriptions.want(["venue/+/score", "venue/+/button"])
    expect(s.sent).toEqual([])
    s.connect(false)
    expect(s.sent.map(({ filters, qos }) => ({ filters, qos }))).toEqual([{ filters: ["venue/+/button", "venue/+/score"], qos: 1 }])
  })

  it("says which filters the broker granted: from then on it keeps what is published on them", () => {
    const s = setUp()
    s.connect(false)
    s.subscriptions.want(["a", "b"])
    expect(s.events).toEqual([])
    s.grant(0)
    expect(s.events).toEqual([{ _tag: "subscribed", filters: ["a", "b"] }])
  })

  it("does not ask again for a filter whose answer is pending or granted", () => {
    const s = setUp()
    s.connect(false)
    s.subscriptions.want(["a"])
    s.subscriptions.want(["a", "b"])
    expect(s.sent.map((x) => x.filters)).toEqual([["a"], ["b"]])
    s.grant(0)
    s.grant(1)
    s.subscriptions.want(["a", "b"])
    expect(s.sent).toHaveLength(2)
  })

  it("after a reconnect, sends only what the broker lacks: nothing when it kept the session, everything when it lost it", () => {
    const s = setUp()
    s.connect(false)
    s.subscriptions.want(["a", "b"])
    s.grant(0)
    s.close()
    s.connect(true)
    expect(s.sent).toHaveLength(1)
    s.close()
    s.connect(false)
    expect(s.sent.map((x) => x.filters)).toEqual([["a", "b"], ["a", "b"]])
  })

  it("sends again a request the dropped connection never answered", () => {
    const s = setUp()
    s.connect(false)
    s.subscriptions.want(["a"])
    s.close()
    s.connect(true)
    expect(s.sent.map((x) => x.filters)).toEqual([["a"], ["a"]])
  })

  it("reports a refused or failed filter, and asks for it again at the next subscribe or connect", () => {
    const s = setUp()
    s.connect(false)
    s.subscriptions.want(["ok", "$SYS/forbidden"])
    s.grant(0, (filter) => (filter === "ok" ? 1 : 128))
    expect(s.events).toEqual([
      { _tag: "subscribed", filters: ["ok"] },
      { _tag: "subscribeFailed", filters: ["$SYS/forbidden"], message: "refused by the broker" }
    ])
    s.subscriptions.want(["other"])
    expect(s.sent[1]!.filters).toEqual(["$SYS/forbidden", "other"])
    s.sent[1]!.answer(new Error("Connection closed"))
    expect(s.events[2]).toEqual({ _tag: "subscribeFailed", filters: ["$SYS/forbidden", "other"], message: "Connection closed" })
    s.close()
    s.connect(true)
    expect(s.sent[2]!.filters).toEqual(["$SYS/forbidden", "other"])
  })
})
