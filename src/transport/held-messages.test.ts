import { describe, expect, it } from "vitest"
import { HeldMessages, heldTiming } from "./held-messages.ts"

const t0 = 1_700_000_000_000

describe("HeldMessages", () => {
  it("after a restart, the resumed session's queue is held since the previous run's listening mark", () => {
    const held = new HeldMessages(t0 - 30_000)
    held.heard(t0) // the CONNACK, heard before the connect is reported
    held.connected(true, t0)
    expect(held.arrived(t0 + 5)).toEqual({ since: t0 - 30_000 })
  })

  it("the queue is taken as held message after message while each follows the previous one's handling", () => {
    const held = new HeldMessages(t0 - 30_000)
    held.connected(true, t0)
    expect(held.arrived(t0 + 5)).toBeDefined()
    // A slow disk held the first one for 3 s: the next follows its acknowledgement, not the connect.
    held.handled(t0 + 3_000)
    expect(held.arrived(t0 + 3_002)).toEqual({ since: t0 - 30_000 })
    held.handled(t0 + 3_010)
    expect(held.arrived(t0 + 3_010 + heldTiming.nextMs + 1)).toBeUndefined()
    // Once the chain broke, everything is live, however soon.
    held.handled(t0 + 3_600)
    expect(held.arrived(t0 + 3_601)).toBeUndefined()
  })

  it("a link that dropped while the daemon ran: held since the last packet heard before the drop, however late the drop was noticed", () => {
    const held = new HeldMessages(t0 - 30_000)
    held.connected(true, t0)
    expect(held.arrived(t0 + heldTiming.firstMs + 1)).toBeUndefined()
    held.heard(t0 + 20_000)
    // Noticed by the keepalive much later; reconnect attempts fail meanwhile.
    held.dropped()
    held.heard(t0 + 65_000)
    held.dropped()
    held.heard(t0 + 70_000)
    held.connected(true, t0 + 70_000)
    expect(held.arrived(t0 + 70_010)).toEqual({ since: t0 + 20_000 })
    expect(held.lastHeard).toBe(t0 + 70_000)
  })

  it("nothing is held on a new session (the broker kept nothing), and unknown since when without a mark", () => {
    const fresh = new HeldMessages(t0 - 30_000)
    fresh.connected(false, t0)
    expect(fresh.arrived(t0 + 5)).toBeUndefined()
    const unmarked = new HeldMessages(null)
    unmarked.connected(true, t0)
    expect(unmarked.arrived(t0 + 5)).toEqual({ since: null })
  })
})
