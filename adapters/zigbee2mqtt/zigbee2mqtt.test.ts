import { describe, expect, it } from "vitest"
import { fuzz, utf8 } from "../button-test-support.ts"
import { parseAction } from "./action.ts"
import { zigbee2mqtt } from "./index.ts"

const t0 = 1_700_000_000_000
const decoder = () => zigbee2mqtt.makeDecoder({ source: "court1-remote" })

describe("zigbee2mqtt: actions", () => {
  it.each([
    ["single", "1", "single"],
    ["double", "1", "double"],
    ["triple", "1", "triple"],
    ["hold", "1", "hold"],
    ["long", "1", "hold"],
    ["release", "1", "release"],
    ["1_single", "1", "single"],
    ["2_double", "2", "double"],
    ["button_1_hold", "1", "hold"],
    ["button_4_release", "4", "release"],
    ["single_left", "left", "single"],
    ["double_right", "right", "double"],
    ["single_both", "both", "single"],
    ["left_single", "left", "single"],
    ["on_press_release", "on", "single"],
    ["off_hold_release", "off", "release"],
    ["long_press", "1", "hold"],
    ["Single", "1", "single"]
  ])("%s → button %s, %s", (action, button, gesture) => {
    expect(parseAction(action)).toEqual({ button, gesture })
  })

  it.each(["brightness_move_up", "quadruple", "on_press", "shake", "rotate_left"])("%s is outside the vocabulary", (action) => {
    expect(parseAction(action)).toBeUndefined()
  })
})

describe("zigbee2mqtt: decoder", () => {
  it("reads `action` from the device's JSON state, stamped with the receive time", () => {
    const d = decoder()
    const payload = `{"action":"single","battery":100,"linkquality":134,"voltage":3042}`
    expect(d.push(utf8(payload), t0, { topic: "zigbee2mqtt/court1-remote" }))
      .toEqual([{ source: "court1-remote", button: "1", gesture: "single", pressedAt: t0 }])
    expect(d.push(utf8(`{"action":"button_2_hold","linkquality":90}`), t0 + 5000, { topic: "zigbee2mqtt/court1-remote" }))
      .toEqual([{ source: "court1-remote", button: "2", gesture: "hold", pressedAt: t0 + 5000 }])
    expect(d.stats).toEqual({ messages: 2, ignored: 0, bad: 0, duplicates: 0 })
  })

  it("reads the plain string on <name>/action", () => {
    const d = decoder()
    expect(d.push(utf8("single_left"), t0, { topic: "zigbee2mqtt/court1-remote/action" }))
      .toEqual([{ source: "court1-remote", button: "left", gesture: "single", pressedAt: t0 }])
  })

  it("ignores reports without an action, an empty or null action, and unknown actions", () => {
    const d = decoder()
    const topic = "zigbee2mqtt/court1-remote"
    for (const payload of [`{"battery":97,"linkquality":120}`, `{"action":""}`, `{"action":null,"battery":97}`, `{"action":"rotate_left"}`]) {
      expect(d.push(utf8(payload), t0, { topic })).toEqual([])
    }
    expect(d.push(utf8(""), t0, { topic: `${topic}/action` })).toEqual([])
    expect(d.stats).toEqual({ messages: 5, ignored: 5, bad: 0, duplicates: 0 })
  })

  it("never takes a retained message for a press", () => {
    const d = decoder()
    expect(d.push(utf8(`{"action":"single"}`), t0, { topic: "zigbee2mqtt/r", retained: true })).toEqual([])
    expect(d.push(utf8("hold"), t0, { topic: "zigbee2mqtt/r/action", retained: true })).toEqual([])
    expect(d.stats.ignored).toBe(2)
  })

  it("counts malformed payloads as bad", () => {
    const d = decoder()
    for (const payload of ["{not json", `{"action":5}`, "[1,2]", `"single"`, "\u00ff\u00fe"]) {
      expect(d.push(utf8(payload), t0, { topic: "zigbee2mqtt/r" })).toEqual([])
    }
    expect(d.stats.bad).toBe(5)
  })

  it("takes the JSON and plain copies of one press (attribute_and_json) once, but two real presses twice", () => {
    const d = decoder()
    expect(d.push(utf8(`{"action":"single"}`), t0, { topic: "zigbee2mqtt/r" })).toHaveLength(1)
    expect(d.push(utf8("single"), t0 + 3, { topic: "zigbee2mqtt/r/action" })).toEqual([])
    expect(d.stats.duplicates).toBe(1)
    expect(d.push(utf8(`{"action":"single"}`), t0 + 900, { topic: "zigbee2mqtt/r" })).toHaveLength(1)
    expect(d.push(utf8(`{"action":"single"}`), t0 + 950, { topic: "zigbee2mqtt/r" })).toHaveLength(1)
    // Another device's copy is not this one's.
    expect(d.push(utf8("single"), t0 + 951, { topic: "zigbee2mqtt/other/action" })).toHaveLength(1)
  })

  it("never throws on garbage", () => {
    const d = decoder()
    fuzz(d, {
      source: "court1-remote",
      stream: false,
      samples: [`{"action":"single","battery":100}`, "1_double", `{"action":"button_2_hold"}`, `{"linkquality":3}`],
      topics: ["zigbee2mqtt/r", "zigbee2mqtt/r/action", undefined]
    })
    expect(d.stats.messages).toBe(400)
    expect(d.stats.bad).toBeGreaterThan(0)
  })
})
