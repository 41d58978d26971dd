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

  it("gives each console the maker, model and wiring note the setup page lists it by", () => {
    for (const name of protocolNames) {
      const { maker, model, wiring, description } = protocols[name]!
      expect(maker.trim(), name).not.toBe("")
      expect(model.trim(), name).not.toBe("")
      // A note the technician can act on: names a port or link and the line settings, in a few sentences.
      expect(wiring.length, name).toBeGreaterThan(80)
      expect(wiring.length, name).toBeLessThan(700)
      expect(wiring, name).toMatch(/baud|8N1|TCP/u)
      expect(wiring, name).not.toBe(description)
    }
    // Generic protocols are not a maker's console: they sit under one heading.
    for (const generic of ["lines", "json"]) expect(["Other", "Any"], generic).toContain(protocols[generic]!.maker)
  })
})
