import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import { stringify } from "yaml"
import { protocols } from "../../adapters/registry.ts"
import { parseConfig } from "../../src/config/load.ts"
import { checkEntry } from "../../src/setup/buttons/button-entry.ts"

const service = { baseUrl: "https://service.invalid", token: { credential: "token" } }

/** What the config loader says of a config holding only this entry: the rules the page's proposals must follow. */
const loaderTakes = (entry: object) =>
  Effect.runPromise(Effect.result(parseConfig(stringify({ service, mqtt: { url: "mqtt://127.0.0.1:1884" }, places: [{ key: "court-1", sport: "basketball" }], buttons: [entry] }), "config.yaml", protocols)))

describe("a button entry the page proposes is checked by the config's own rules", () => {
  it("refuses options for a type that takes none, as the config loader does (a zigbee2mqtt entry with a misspelt key)", async () => {
    const entry = { name: "remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/remote"] }, options: { gesturs: { double: true } } } as const
    expect(Result.isFailure(await loaderTakes(entry))).toBe(true)
    const checked = checkEntry(entry)
    expect(Result.isFailure(checked) ? checked.failure : []).toEqual([`options.gesturs: unknown key "gesturs": type zigbee2mqtt takes no options`])
  })

  it("takes what the loader takes, its options decoded with their defaults", async () => {
    const entry = { name: "box", type: "serial-buttons", serial: { path: "/dev/serial/by-id/usb-box" } } as const
    expect(Result.isSuccess(await loaderTakes(entry))).toBe(true)
    expect(Result.isSuccess(checkEntry(entry))).toBe(true)
  })
})
