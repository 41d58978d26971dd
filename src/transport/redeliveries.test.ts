import { describe, expect, it } from "vitest"
import { Redeliveries, strictlyIncreasing } from "./redeliveries.ts"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("Redeliveries", () => {
  const press = Redeliveries.identity("zigbee2mqtt/remote", bytes(`{"action":"single"}`))

  it("drops a DUP of a message already acknowledged under the same id, topic and payload", () => {
    const seen = new Redeliveries()
    seen.acknowledged(7, press)
    expect(seen.isRedelivery(true, 7, press)).toBe(true)
  })

  it("processes a first delivery, a DUP never acknowledged, and a reused id with other content", () => {
    const seen = new Redeliveries()
    seen.acknowledged(7, press)
    expect(seen.isRedelivery(false, 7, press)).toBe(false)
    expect(seen.isRedelivery(true, 8, press)).toBe(false)
    expect(seen.isRedelivery(true, 7, Redeliveries.identity("zigbee2mqtt/remote", bytes(`{"action":"double"}`)))).toBe(false)
    expect(seen.isRedelivery(true, 7, Redeliveries.identity("zigbee2mqtt/other", bytes(`{"action":"single"}`)))).toBe(false)
  })

  it("remembers the last message acknowledged under an id, and ignores ids MQTT never uses", () => {
    const seen = new Redeliveries()
    const double = Redeliveries.identity("zigbee2mqtt/remote", bytes(`{"action":"double"}`))
    seen.acknowledged(65_535, press)
    seen.acknowledged(65_535, double)
    expect(seen.isRedelivery(true, 65_535, press)).toBe(false)
    expect(seen.isRedelivery(true, 65_535, double)).toBe(true)
    seen.acknowledged(0, press)
    seen.acknowledged(65_536, press)
    expect(seen.isRedelivery(true, 0, press)).toBe(false)
    expect(seen.isRedelivery(true, 65_536, press)).toBe(false)
  })
})

describe("strictlyIncreasing", () => {
  it("never repeats a stamp within a burst, and follows the clock otherwise", () => {
    const stamp = strictlyIncreasing()
    expect([stamp(1000), stamp(1000), stamp(1000), stamp(1001), stamp(2000)]).toEqual([1000, 1001, 1002, 1003, 2000])
  })
})
