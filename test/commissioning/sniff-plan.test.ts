import { describe, expect, it } from "vitest"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { protocols } from "../../adapters/registry.ts"
import { framingLabel } from "../../src/commissioning/serial-framing.ts"
import { sniffPlan } from "../../src/commissioning/sniff-plan.ts"

/** A console definition for the plan: a registered one's decoder under another name, line settings and recognition. */
const console_ = (
  name: string,
  serialDefaults: ProtocolDefinition<unknown>["serialDefaults"],
  recognise: ProtocolDefinition<unknown>["recognise"]
): ProtocolDefinition<unknown> => {
  const { recognise: _, ...rest } = protocols["fairplay-mp70"]!
  return { ...rest, name, serialDefaults, ...(recognise === undefined ? {} : { recognise }) }
}

const eightN1 = { dataBits: 8, parity: "none", stopBits: 1 } as const
const eightE1 = { dataBits: 8, parity: "even", stopBits: 1 } as const
const sevenO2 = { dataBits: 7, parity: "odd", stopBits: 2 } as const

/** The plan as "8E1 at 19200,9600: p, q" lines, one per port opening's framing. */
const said = (plan: ReturnType<typeof sniffPlan>) =>
  plan.map(({ framing, baudRates, protocols: names }) => `${framingLabel(framing)} at ${baudRates.join(",")}: ${names.join(", ")}`)

describe("what sniff listens with: one framing per port opening", () => {
  it("opens 8N1 first, then each other framing a recognisable console sends at, each at the speeds given plus its consoles' documented ones", () => {
    const definitions = [
      console_("eight-none", { ...eightN1, baudRate: 19200 }, {}),
      console_("pool", { ...eightE1, baudRate: 9600 }, { otherBaudRates: [2400] }),
      console_("old-printer", { ...sevenO2, baudRate: 1200 }, {}),
      console_("pool-twin", { ...eightE1, baudRate: 9600 }, { otherBaudRates: [4800, 2400] })
    ]
    expect(said(sniffPlan([19200, 9600], definitions))).toEqual([
      "8N1 at 19200,9600: eight-none",
      "8E1 at 19200,9600,2400,4800: pool, pool-twin",
      "7O2 at 19200,9600,1200: old-printer"
    ])
  })

  it("tries a framing only for the consoles that recognise themselves: one needing a field map first (lines, json) adds none", () => {
    const definitions = [
      console_("text", { ...sevenO2, baudRate: 9600 }, undefined),
      console_("pool", { ...eightE1, baudRate: 9600 }, {})
    ]
    // 8N1 stays first, with no console of its own: text lines are guessed there.
    expect(said(sniffPlan([9600], definitions))).toEqual(["8N1 at 9600: ", "8E1 at 9600: pool"])
  })

  it("keeps the speeds given in their order, each once, and adds no speed the consoles of that framing do not document", () => {
    const definitions = [
      console_("fast", { ...eightN1, baudRate: 38400 }, { otherBaudRates: [19200] }),
      console_("pool", { ...eightE1, baudRate: 9600 }, { otherBaudRates: [2400] })
    ]
    expect(said(sniffPlan([2400, 19200, 9600], definitions))).toEqual(["8N1 at 2400,19200,9600,38400: fast", "8E1 at 2400,19200,9600: pool"])
  })

  it("over the registry: every recognisable console is tried once, at its own framing and at its documented speeds", () => {
    const plan = sniffPlan([115200])
    expect(plan[0]!.framing).toEqual(eightN1)
    const tried = plan.flatMap((p) => p.protocols)
    expect([...tried].sort()).toEqual(Object.values(protocols).filter((d) => d.recognise !== undefined).map((d) => d.name).sort())
    for (const { framing, baudRates, protocols: names } of plan) {
      for (const name of names) {
        const { serialDefaults, recognise } = protocols[name]!
        expect(framingLabel(serialDefaults), name).toBe(framingLabel(framing))
        expect(baudRates, name).toEqual(expect.arrayContaining([115200, serialDefaults.baudRate, ...(recognise?.otherBaudRates ?? [])]))
      }
    }
  })
})
