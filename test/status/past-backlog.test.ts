import { describe, expect, it } from "vitest"
import { pastBacklogs, pastEntriesOf } from "../../src/status/past-backlog.ts"

const now = 1_700_000_000_000

describe("past events' backlog per place", () => {
  it("counts entries of events other than the live one; entries without an event go to the live one", () => {
    const pending = [
      { place: "court-1", eventKey: "sat-1", count: 300 },
      { place: "court-1", eventKey: "sun-1", count: 200 },
      { place: "court-1", eventKey: "mon-1", count: 12 },
      { place: "court-1", eventKey: null, count: 4 },
      { place: "court-2", eventKey: "sat-2", count: 9 }
    ]
    expect(pastEntriesOf(pending, "court-1", "mon-1").map((p) => p.eventKey)).toEqual(["sat-1", "sun-1"])
    expect(pastEntriesOf(pending, "court-1", null).map((p) => p.eventKey)).toEqual(["sat-1", "sun-1", "mon-1"])
  })

  it("a place is through once every place's first n entries went, in turns, at the last minute's pace", () => {
    const byPlace = new Map([
      ["court-1", [{ place: "court-1", eventKey: "a", count: 600 }]],
      ["court-2", [{ place: "court-2", eventKey: "b", count: 60 }, { place: "court-2", eventKey: "c", count: 60 }]],
      ["court-3", []]
    ])
    const eta = pastBacklogs(byPlace, 60, now)
    // court-2: 120 of its own and 120 of court-1's in turn, at one a second.
    expect(eta.get("court-2")).toEqual({ entries: 120, events: 2, throughAt: now + 240_000 })
    // court-1: its 600 and court-2's 120.
    expect(eta.get("court-1")!.throughAt).toBe(now + 720_000)
    expect(eta.get("court-3")).toEqual({ entries: 0, events: 0, throughAt: now })
  })

  it("says nothing of when while no past entry is being accepted (service down, or every slot live)", () => {
    const eta = pastBacklogs(new Map([["court-1", [{ place: "court-1", eventKey: "a", count: 5 }]]]), 0, now)
    expect(eta.get("court-1")).toEqual({ entries: 5, events: 1, throughAt: null })
  })
})
