import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { buttonSourceNames, buttonSources } from "./button-registry.ts"
import { utf8 } from "./button-test-support.ts"

/** One real press per text source, found through the public lookup as the daemon will (input-event has its own binary tests). */
const examples: Record<string, { readonly input: Uint8Array; readonly topic?: string }> = {
  "zigbee2mqtt": { input: utf8(`{"action":"single","battery":100}`), topic: "zigbee2mqtt/remote" },
  "shelly": { input: utf8(`{"event":"S","event_cnt":1}`), topic: "shellies/button1/input_event/0" },
  "serial-buttons": { input: utf8("BTN 1 single\n") },
  "gpiomon": { input: utf8("1700000000.0\trising\tgpiochip0 1\n1700000000.1\tfalling\tgpiochip0 1\n") }
}

describe("button source registry", () => {
  it("lists every source once, under its own name", () => {
    expect([...buttonSourceNames].sort()).toEqual([...Object.keys(examples), "input-event"].sort())
    for (const name of buttonSourceNames) expect(buttonSources[name]!.name).toBe(name)
  })

  it.each(Object.keys(examples))("%s decodes a press with default options", (name) => {
    const definition = buttonSources[name]!
    const options = Schema.decodeUnknownSync(definition.optionsSchema)({})
    const decoder = definition.makeDecoder({ ...(options as object), source: "s" })
    const { input, topic } = examples[name]!
    const events = decoder.push(input, 1_700_000_000_500, { topic })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ source: "s", gesture: "single" })
  })
})
