import { describe, expect, it } from "vitest"
import { fuzz, utf8 } from "../button-test-support.ts"
import { shelly } from "./index.ts"

const t0 = 1_700_000_000_000
const source = "court2-i4"

describe("shelly Gen1: shellies/<id>/input_event/<n>", () => {
  const topic = "shellies/shellybutton1-E8DB84AA1B2C/input_event/0"

  const slot = `${source} ${topic}`

  it.each([["S", "single"], ["SS", "double"], ["SSS", "triple"], ["L", "hold"]])("%s → %s, button from the topic", (event, gesture) => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(utf8(`{"event":"${event}","event_cnt":12}`), t0, { topic }))
      .toEqual([{ source, button: "0", gesture, pressedAt: t0, identity: { slot, identity: "12" } }])
  })

  it("gives each press its event_cnt as identity, in a slot of the source and topic: a new decoder (a restarted bridge) lets the re-publish through for the outbox to recognise", () => {
    const before = shelly.makeDecoder({ source })
    const press = before.push(utf8(`{"event":"S","event_cnt":41}`), t0, { topic })
    expect(press.map((p) => p.identity)).toEqual([{ slot, identity: "41" }])
    const other = before.push(utf8(`{"event":"S","event_cnt":41}`), t0, { topic: "shellies/shellyix3-1/input_event/2" })
    expect(other.map((p) => p.identity)).toEqual([{ slot: `${source} shellies/shellyix3-1/input_event/2`, identity: "41" }])
    const after = shelly.makeDecoder({ source })
    expect(after.push(utf8(`{"event":"S","event_cnt":41}`), t0 + 5_000, { topic }))
      .toEqual([{ source, button: "0", gesture: "single", pressedAt: t0 + 5_000, identity: { slot, identity: "41" } }])
    expect(shelly.makeDecoder({ source: "other-remote" }).push(utf8(`{"event":"S","event_cnt":41}`), t0, { topic })[0]?.identity?.slot)
      .toBe(`other-remote ${topic}`)
  })

  it("drops a republished event by its event_cnt, per input", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(utf8(`{"event":"S","event_cnt":3}`), t0, { topic })).toHaveLength(1)
    expect(d.push(utf8(`{"event":"S","event_cnt":3}`), t0 + 30_000, { topic })).toEqual([])
    expect(d.push(utf8(`{"event":"S","event_cnt":3}`), t0 + 30_001, { topic: "shellies/shellyix3-1/input_event/2" }))
      .toMatchObject([{ source, button: "2", gesture: "single", pressedAt: t0 + 30_001 }])
    expect(d.push(utf8(`{"event":"S","event_cnt":4}`), t0 + 31_000, { topic })).toHaveLength(1)
    // A reboot restarts the count: a different count is a new press.
    expect(d.push(utf8(`{"event":"L","event_cnt":1}`), t0 + 32_000, { topic })).toHaveLength(1)
    expect(d.stats).toEqual({ messages: 5, ignored: 0, bad: 0, duplicates: 1 })
  })

  it("never takes the retained last event for a press, but remembers its count", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(utf8(`{"event":"S","event_cnt":7}`), t0, { topic, retained: true })).toEqual([])
    expect(d.push(utf8(`{"event":"S","event_cnt":7}`), t0 + 10, { topic })).toEqual([])
    expect(d.push(utf8(`{"event":"SS","event_cnt":8}`), t0 + 20, { topic })).toHaveLength(1)
    expect(d.stats).toEqual({ messages: 3, ignored: 1, bad: 0, duplicates: 1 })
  })

  it("ignores the empty event and long-short combinations; counts a wrong shape as bad", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(utf8(`{"event":"","event_cnt":0}`), t0, { topic })).toEqual([])
    expect(d.push(utf8(`{"event":"SL","event_cnt":1}`), t0, { topic })).toEqual([])
    expect(d.push(utf8(`{"event":"S"}`), t0, { topic })).toEqual([])
    expect(d.push(utf8(`{"event":"S","event_cnt":-1}`), t0, { topic })).toEqual([])
    expect(d.stats).toEqual({ messages: 4, ignored: 2, bad: 2, duplicates: 0 })
  })

  it("ignores the device's other topics", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(utf8("true"), t0, { topic: "shellies/shellybutton1-E8DB84AA1B2C/online" })).toEqual([])
    expect(d.stats.ignored).toBe(1)
  })
})

describe("shelly Gen2+: <device-id>/events/rpc", () => {
  const topic = "shellyplusi4-a8032ab8b9d4/events/rpc"
  const notify = (event: string, ts: number, id = 0) => utf8(JSON.stringify({
    src: "shellyplusi4-a8032ab8b9d4",
    dst: "shellyplusi4-a8032ab8b9d4/events",
    method: "NotifyEvent",
    params: { ts, events: [{ component: `input:${id}`, id, event, ts }] }
  }))
  const deviceTs = (t0 - 250) / 1000

  it.each([["single_push", "single"], ["double_push", "double"], ["triple_push", "triple"], ["long_push", "hold"]])(
    "%s → %s, stamped with the device's ts",
    (event, gesture) => {
      const d = shelly.makeDecoder({ source })
      expect(d.push(notify(event, deviceTs, 3), t0, { topic }))
        .toEqual([{ source, button: "3", gesture, pressedAt: t0 - 250, identity: { slot: `${source} 3`, identity: `${event}@${deviceTs}` } }])
    }
  )

  it("takes params.ts when the event has none", () => {
    const d = shelly.makeDecoder({ source })
    const payload = `{"method":"NotifyEvent","params":{"ts":${deviceTs},"events":[{"component":"input:0","id":0,"event":"single_push"}]}}`
    expect(d.push(utf8(payload), t0, { topic }))
      .toEqual([{ source, button: "0", gesture: "single", pressedAt: t0 - 250, identity: { slot: `${source} 0`, identity: `single_push@${deviceTs}` } }])
  })

  it("falls back to the receive time when the device clock is not set; the stamp still names the press", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(notify("single_push", 12.5), t0, { topic }))
      .toEqual([{ source, button: "0", gesture: "single", pressedAt: t0, identity: { slot: `${source} 0`, identity: "single_push@12.5" } }])
  })

  it("a gesture without any device stamp has no identity", () => {
    const d = shelly.makeDecoder({ source })
    const payload = `{"method":"NotifyEvent","params":{"events":[{"component":"input:1","id":1,"event":"double_push"}]}}`
    expect(d.push(utf8(payload), t0, { topic })).toEqual([{ source, button: "1", gesture: "double", pressedAt: t0 }])
    expect(d.push(utf8(payload), t0 + 5, { topic })).toHaveLength(1)
  })

  it("with rawEdges, gestures built by our detector have no identity", () => {
    const d = shelly.makeDecoder({ source, rawEdges: true, gestures: { debounceMs: 40, holdMs: 800, multiPressMs: 0 } })
    const down = t0 - 1000
    d.push(notify("btn_down", down / 1000), t0, { topic })
    expect(d.push(notify("btn_up", (down + 120) / 1000), t0 + 1, { topic }).map((p) => p.identity)).toEqual([undefined])
  })

  it("ignores btn_down/btn_up, other events and other methods by default", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(notify("btn_down", deviceTs), t0, { topic })).toEqual([])
    expect(d.push(notify("btn_up", deviceTs + 0.1), t0, { topic })).toEqual([])
    expect(d.push(notify("config_changed", deviceTs), t0, { topic })).toEqual([])
    expect(d.push(utf8(`{"method":"NotifyStatus","params":{"ts":1,"input:0":{"id":0,"state":true}}}`), t0, { topic })).toEqual([])
    expect(d.stats).toEqual({ messages: 4, ignored: 4, bad: 0, duplicates: 0 })
  })

  it("drops a QoS 1 redelivery and ignores retained messages", () => {
    const d = shelly.makeDecoder({ source })
    expect(d.push(notify("single_push", deviceTs), t0, { topic })).toHaveLength(1)
    expect(d.push(notify("single_push", deviceTs), t0 + 5, { topic })).toEqual([])
    expect(d.push(notify("single_push", deviceTs + 1), t0 + 1000, { topic })).toHaveLength(1)
    expect(d.push(notify("single_push", deviceTs + 2), t0 + 2000, { topic, retained: true })).toEqual([])
    expect(d.stats).toEqual({ messages: 4, ignored: 1, bad: 0, duplicates: 1 })
  })

  it("with rawEdges, builds gestures from btn_down/btn_up and ignores *_push", () => {
    const d = shelly.makeDecoder({ source, rawEdges: true, gestures: { debounceMs: 40, holdMs: 800, multiPressMs: 0 } })
    const down = t0 - 1000
    expect(d.push(notify("btn_down", down / 1000), t0, { topic })).toEqual([])
    expect(d.nextDeadline()).toBe(down + 800)
    expect(d.push(notify("btn_up", (down + 120) / 1000), t0 + 1, { topic }))
      .toEqual([{ source, button: "0", gesture: "single", pressedAt: down }])
    expect(d.push(notify("single_push", (down + 130) / 1000), t0 + 2, { topic })).toEqual([])
    expect(d.push(notify("btn_down", (down + 500) / 1000), t0 + 3, { topic })).toEqual([])
    expect(d.flush(down + 1300)).toEqual([{ source, button: "0", gesture: "hold", pressedAt: down + 500 }])
  })

  it("counts malformed payloads as bad", () => {
    const d = shelly.makeDecoder({ source })
    for (const payload of ["", "{", `{"params":{}}`, `{"method":"NotifyEvent","params":{"events":[{"event":5}]}}`]) {
      expect(d.push(utf8(payload), t0, { topic })).toEqual([])
    }
    expect(d.stats.bad).toBe(4)
  })
})

describe("shelly: push never throws", () => {
  it("on garbage and mutated payloads", () => {
    const d = shelly.makeDecoder({ source, rawEdges: true })
    fuzz(d, {
      source,
      stream: false,
      samples: [
        `{"event":"S","event_cnt":3}`,
        `{"method":"NotifyEvent","params":{"ts":1700000000.1,"events":[{"component":"input:0","id":0,"event":"btn_down"}]}}`,
        `{"method":"NotifyEvent","params":{"ts":1700000000.2,"events":[{"component":"input:0","id":0,"event":"btn_up"}]}}`
      ],
      topics: ["shellies/b/input_event/0", "b/events/rpc", undefined, "shellies/b/online"]
    })
    expect(d.stats.messages).toBe(400)
    expect(d.stats.bad).toBeGreaterThan(0)
  })
})
