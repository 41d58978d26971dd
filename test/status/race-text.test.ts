import { describe, expect, it } from "vitest"
import type { Reading } from "../../src/domain/reading.ts"
import { lastFinishes } from "../../src/status/race-status.ts"
import { readingText } from "../../src/status/reading-text.ts"
import { finish } from "./race-events.ts"

const board = { clockReset: false, lanes: [] }

describe("a timing console's reading in words", () => {
  it("is the event, heat and clock for a race, never a score", () => {
    expect(readingText({ receivedAt: 0, clock: "1:02.3", race: { ...board, clockMs: 62_300, event: 12, heat: 3 } })).toBe("Event 12 · Heat 3 · 1:02.3")
    expect(readingText({ receivedAt: 0, clock: "0.0", race: { ...board, clockReset: true, clockMs: 0, heat: 1 } })).toBe("Heat 1 · 0.0")
    expect(readingText({ receivedAt: 0, clock: "45.1", race: { ...board, clockMs: 45_100, event: 4, heat: 2, blanked: true } })).toBe("Event 4 · Heat 2 · 45.1 · board blanked")
  })

  it("puts a dual meet's team score first, where the page shows it large", () => {
    const dual: Reading = { receivedAt: 0, home: 45, away: 38, clock: "1:02.3", race: { ...board, clockMs: 62_300, event: 12, heat: 3 } }
    expect(readingText(dual)).toBe("45–38 · Event 12 · Heat 3 · 1:02.3")
  })

  it("says no score is read when the console's score channels are not configured, and keeps a game clock", () => {
    const shown = [{ label: "channel 13", text: "  0 0  0" }]
    expect(readingText({ receivedAt: 0, shown })).toBe("no score read (score channels not configured)")
    expect(readingText({ receivedAt: 0, shown, clock: "6:41" })).toBe("6:41")
    expect(readingText({ receivedAt: 0 })).toBe("(no score fields)")
  })
})

describe("the finishes a pool's card lists", () => {
  it("keep a 10-lane race's first 8 places, the winner on top whatever order they settled in", () => {
    const start = 1_000_000
    const arrived = [3, 1, 2, 5, 4, 6, 7, 9, 8, 10].map((place) => ({ finish: finish(place, place, `${27 + place}.00`, (27 + place) * 1000, start + (place % 3) * 90), clickItemId: null }))
    const listed = lastFinishes([{ finish: finish(6, 1, "29.10", 29_100, start - 300_000, { event: 11, heat: 1 }), clickItemId: 7 }, ...arrived])
    expect(listed.map((f) => [f.race, f.finish.place])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((place) => [0, place]))
  })

  it("put the race before below the newest, and tell apart two heats started close together by their event and heat", () => {
    const start = 2_000_000
    const heat3 = finish(4, 1, "28.91", 28_910, start)
    const heat4 = finish(4, 1, "29.05", 29_050, start + 4_000, { event: 12, heat: 4 })
    const before = finish(2, 1, "31.00", 31_000, start - 240_000, { event: 11, heat: 2 })
    const listed = lastFinishes([before, heat3, heat4].map((f) => ({ finish: f, clickItemId: null })))
    expect(listed.map((f) => [f.race, f.finish.heat])).toEqual([[0, 4], [1, 3], [2, 2]])
  })
})
