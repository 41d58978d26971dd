import { describe, expect, it } from "vitest"
import { protocolNames, protocols } from "./registry.ts"

describe("protocol registry", () => {
  it("lists each console by the name its definition gives", () => {
    for (const name of protocolNames) expect(protocols[name]!.name).toBe(name)
  })

  it("gives each console what the config, sniff and learn read of it", () => {
    for (const name of protocolNames) {
      const definition = protocols[name]!
      expect(definition.summary, name).not.toBe("")
      expect(definition.example, name).toMatch(new RegExp(`^protocol: ${name}\\n`, "u"))
      // A variant sniff prints must be one the protocol's options take: the first is the default.
      expect(definition.recognise?.variants?.[0]?.options ?? {}, name).toEqual({})
    }
  })
})
