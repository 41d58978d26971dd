import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { ClientEvent } from "./mqtt-link-events.ts"
import type { MqttMessage } from "./mqtt-message.ts"
import { maxUnclaimed, MqttRoutes, type Route, routesFor, unclaimedAckMs } from "./mqtt-routes.ts"

describe("routesFor", () => {
  const court1 = { name: "court1", filters: ["venue/court1/#"] }
  const scores = { name: "scores", filters: ["venue/+/score", "venue/court1/score"] }
  const bridge = { name: "bridge", filters: ["venue/bridge"] }

  it.each([
    ["venue/court1/score", ["court1", "scores"]],
    ["venue/court2/score", ["scores"]],
    ["venue/court1/button", ["court1"]],
    ["venue/bridge/state", []],
    ["other/court1/score", []]
  ])("%s goes to %j, each once", (topic, expected) => {
    expect(routesFor([court1, scores, bridge], topic).map((route) => route.name)).toEqual(expected)
  })
})

/** A message whose acknowledgements are counted. */
const message = (topic: string) => {
  const counted = { acks: 0 }
  const m: MqttMessage = { topic, payload: new Uint8Array(), receivedAt: 0, retained: false, redelivered: false, ack: () => counted.acks++ }
  return Object.assign(m, { counted })
}

const route = (filters: ReadonlyArray<string>) => {
  const got: Array<MqttMessage> = []
  const r: Route = { filters, deliver: (m) => got.push(m) }
  return Object.assign(r, { got })
}

describe("MqttRoutes", () => {
  let events: Array<ClientEvent>
  let routes: MqttRoutes
  const awaited = ["venue/+/button", "venue/#", "venue/waiting/+"]
  beforeEach(() => {
    vi.useFakeTimers()
    events = []
    routes = new MqttRoutes((event) => events.push(event), awaited)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("hands a message to every stream whose filters match, and to no other", () => {
    const buttons = route(["venue/+/button"])
    const court1 = route(["venue/court1/#"])
    const scores = route(["venue/+/score"])
    for (const r of [buttons, court1, scores]) routes.add(r)
    const press = message("venue/court1/button")
    routes.route(press)
    expect(buttons.got.map((m) => m.topic)).toEqual([press.topic])
    expect(court1.got.map((m) => m.topic)).toEqual([press.topic])
    expect(scores.got).toEqual([])
    // Acknowledging is the streams' business, not the routing's.
    expect(press.counted.acks).toBe(0)
  })

  it("acknowledges a message several streams got once each of them acknowledged its copy", () => {
    const buttons = route(["venue/+/button"])
    const everything = route(["venue/#"])
    routes.add(buttons)
    routes.add(everything)
    const press = message("venue/court1/button")
    routes.route(press)
    everything.got[0]!.ack()
    everything.got[0]!.ack()
    expect(press.counted.acks).toBe(0)
    buttons.got[0]!.ack()
    expect(press.counted.acks).toBe(1)
  })

  it("keeps a message awaited for the first stream that subscribes to its topic", () => {
    const early = message("venue/court1/button")
    routes.route(early)
    const scores = route(["venue/+/score"])
    routes.add(scores)
    const buttons = route(["venue/+/button"])
    routes.add(buttons)
    const more = route(["venue/#"])
    routes.add(more)
    expect(scores.got).toEqual([])
    expect(buttons.got.map((m) => m.topic)).toEqual([early.topic])
    expect(more.got).toEqual([])
    vi.advanceTimersByTime(unclaimedAckMs + 1)
    expect(early.counted.acks).toBe(0)
    expect(events).toEqual([{ _tag: "awaitingStream", topic: "venue/court1/button", forMs: unclaimedAckMs }])
  })

  it("acknowledges and drops at once a message on no filter the daemon's streams subscribe to", () => {
    const stale = message("old-config/remote")
    routes.route(stale)
    expect(stale.counted.acks).toBe(1)
    expect(events).toEqual([{ _tag: "messageDropped", topic: "old-config/remote", reason: "stale" }])
  })

  it("once a filter's stream subscribed, a message on it with no stream left is not waited for", () => {
    const buttons = route(["venue/+/button"])
    const all = route(["venue/#"])
    routes.add(buttons)
    routes.add(all)
    routes.remove(buttons, "ended")
    routes.remove(all, "ended")
    const press = message("venue/court1/button")
    routes.route(press)
    expect(press.counted.acks).toBe(1)
    expect(events).toEqual([{ _tag: "messageDropped", topic: "venue/court1/button", reason: "stale" }])
  })

  it("acknowledges and drops an awaited message nobody claims in time, so that the client reads on", () => {
    const orphan = message("venue/old-config/button")
    routes.route(orphan)
    vi.advanceTimersByTime(unclaimedAckMs - 1)
    expect(orphan.counted.acks).toBe(0)
    vi.advanceTimersByTime(2)
    expect(orphan.counted.acks).toBe(1)
    expect(events).toEqual([
      { _tag: "awaitingStream", topic: "venue/old-config/button", forMs: unclaimedAckMs },
      { _tag: "messageDropped", topic: "venue/old-config/button", reason: "unclaimed" }
    ])
    const late = route(["venue/#"])
    routes.add(late)
    expect(late.got).toEqual([])
  })

  it("beyond the bound, the oldest unclaimed message goes first", () => {
    const waiting = Array.from({ length: maxUnclaimed + 1 }, (_, i) => message(`venue/waiting/${i}`))
    for (const m of waiting) routes.route(m)
    expect(waiting[0]!.counted.acks).toBe(1)
    expect(events.filter((e) => e._tag === "messageDropped")).toEqual([{ _tag: "messageDropped", topic: "venue/waiting/0", reason: "unclaimed" }])
    expect(events.filter((e) => e._tag === "awaitingStream")).toHaveLength(maxUnclaimed + 1)
    const all = route(["venue/waiting/+"])
    routes.add(all)
    expect(all.got.map((m) => m.topic)).toEqual(waiting.slice(1).map((m) => m.topic))
  })

  it("a stream that ended gets nothing more", () => {
    const buttons = route(["venue/+/button"])
    routes.add(buttons)
    routes.remove(buttons, "ended")
    routes.route(message("venue/court1/button"))
    expect(buttons.got).toEqual([])
  })

  it("a stream that completes or fails holding a message lets go of it; the others' share still counts", () => {
    const buttons = route(["venue/+/button"])
    const everything = route(["venue/#"])
    routes.add(buttons)
    routes.add(everything)
    const press = message("venue/court1/button")
    routes.route(press)
    routes.remove(buttons, "ended")
    expect(press.counted.acks).toBe(0)
    expect(events).toEqual([{ _tag: "messageDropped", topic: "venue/court1/button", reason: "streamEnded" }])
    everything.got[0]!.ack()
    expect(press.counted.acks).toBe(1)
  })

  it("a stream interrupted holding a message keeps it from the broker, for the next run", () => {
    const buttons = route(["venue/+/button"])
    const everything = route(["venue/#"])
    routes.add(buttons)
    routes.add(everything)
    const press = message("venue/court1/button")
    routes.route(press)
    everything.got[0]!.ack()
    routes.remove(buttons, "interrupted")
    routes.remove(everything, "interrupted")
    expect(press.counted.acks).toBe(0)
    expect(events).toEqual([])
  })
})
