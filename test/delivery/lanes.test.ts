import { describe, expect, it } from "vitest"
import { Lanes } from "../../src/delivery/lanes.ts"

const item = (id: number, place: string, kind: "score" | "click" | "undo") => ({ id, place, kind })

describe("Lanes", () => {
  it("admits one score per place at a time, and the next once the first is released", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(1, "court-1", "score"))).toBe(true)
    expect(lanes.admit(item(2, "court-1", "score"))).toBe(false)
    expect(lanes.admit(item(3, "court-2", "score"))).toBe(true)
    lanes.release(item(1, "court-1", "score"))
    expect(lanes.admit(item(2, "court-1", "score"))).toBe(true)
  })

  it("admits every click of a place at once, beside its score", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(1, "court-1", "score"))).toBe(true)
    expect([2, 3, 4].map((id) => lanes.admit(item(id, "court-1", "click")))).toEqual([true, true, true])
    expect(lanes.perPlace()).toEqual({ "court-1": 4 })
  })

  it("never admits an item twice while it is in flight", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(7, "court-1", "click"))).toBe(true)
    expect(lanes.admit(item(7, "court-1", "click"))).toBe(false)
    lanes.release(item(7, "court-1", "click"))
    expect(lanes.perPlace()).toEqual({})
  })

  it("releasing an item that is not in flight does not free the place's score lane", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(1, "court-1", "score"))).toBe(true)
    lanes.release(item(9, "court-1", "score"))
    expect(lanes.admit(item(2, "court-1", "score"))).toBe(false)
  })

  it("a hand-over keeps the lane busy with the newer entry, which alone is in flight and releases it", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(1, "court-1", "score"))).toBe(true)
    lanes.handOver(item(1, "court-1", "score"), item(5, "court-1", "score"))
    expect(lanes.busy("court-1", "live")).toBe(true)
    // The entry handed over is in flight: not admitted twice (say, by the past lane).
    expect(lanes.admit(item(5, "court-1", "score"), "past")).toBe(false)
    // The entry that gave up its slot is not: the lane will take it again.
    lanes.release(item(1, "court-1", "score"))
    expect(lanes.busy("court-1", "live")).toBe(true)
    lanes.release(item(5, "court-1", "score"))
    expect(lanes.busy("court-1", "live")).toBe(false)
    expect(lanes.perPlace()).toEqual({})
  })

  it("a place's live and past score lanes each hold one entry, independently", () => {
    const lanes = new Lanes()
    expect(lanes.admit(item(1, "court-1", "score"), "past")).toBe(true)
    expect(lanes.admit(item(2, "court-1", "score"), "past")).toBe(false)
    expect(lanes.admit(item(3, "court-1", "score"), "live")).toBe(true)
    expect(lanes.busy("court-1", "live")).toBe(true)
    lanes.release(item(3, "court-1", "score"))
    expect([lanes.busy("court-1", "live"), lanes.busy("court-1", "past")]).toEqual([false, true])
    expect(lanes.admit(item(2, "court-1", "score"), "live")).toBe(true)
  })
})
