import { describe, expect, it } from "vitest"
import { buildTimeline, type TimelineInput } from "../../src/timeline/build-timeline.ts"
import { finishTimeMs } from "../../src/timeline/finish-races.ts"
import { timelineSvg } from "../../src/timeline/timeline-svg.ts"
import { ItemLog } from "../../scripts/support/outbox-item-log.ts"
import { finish, finishClick } from "../status/race-events.ts"

/**
 * A pool's timeline (sport swimming, no score entry in the event): its finishes along the time
 * axis, one row per place, each race a band from its start — no Home/Away rows, no score axis or
 * lines, no score backlog, a legend about finishes. A dual meet whose team scores are sent keeps
 * the score chart.
 */

const start = Date.UTC(2025, 5, 14, 14, 0, 0)
const input = (log: ItemLog, sport = "swimming"): TimelineInput =>
  ({ place: { key: "pool", name: "Pool" }, sport, event: null, recent: log.recent(), followUps: log.followUps() })

/** A heat: lanes touching 28.91 s to 1:01.20 after `startAt`, clicked by the rule. */
const heat = (log: ItemLog, startAt: number, event: number, heatNumber: number, more: Parameters<ItemLog["click"]>[2] = {}) =>
  [[4, 1, 28_910], [5, 2, 29_400], [3, 3, 30_020], [6, 4, 61_200]].map(([lane, place, ms]) => {
    const time = ms! < 60_000 ? (ms! / 1000).toFixed(2) : `1:${((ms! - 60_000) / 1000).toFixed(2).padStart(5, "0")}`
    const f = finish(lane!, place!, time, ms!, startAt, { event, heat: heatNumber })
    return { f, item: log.click(finishClick(f), f.at, more) }
  })

const tags = (svg: string, attribute: string) => [...svg.matchAll(new RegExp(`<[a-z]+ [^>]*${attribute}[^>]*>`, "gu"))].map((m) => m[0])
const attr = (tagText: string, name: string) => new RegExp(`${name}="([^"]*)"`, "u").exec(tagText)?.[1]
const texts = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/gu)].map((m) => m[1]!)

describe("a pool's timeline", () => {
  it("reads a time as the board shows it", () => {
    expect(["28.91", "1:02.34", "9.87", "15:59.99", "0.00"].map(finishTimeMs)).toEqual([28_910, 62_340, 9_870, 959_990, 0])
    expect(["", "28.9", "1:62.00", "28,91", "-1.00", "1:02.345"].map(finishTimeMs)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined])
  })

  it("draws each race's finishes by place along the time axis: no team rows, score axis, score lines or score backlog", () => {
    const log = new ItemLog("pool", "meet-1")
    const first = heat(log, start, 12, 3)
    const second = heat(log, start + 5 * 60_000, 12, 4, { state: "pending" })
    const press = log.press(start + 3 * 60_000, "none")
    const tl = buildTimeline(input(log))
    expect(tl.races).toEqual([
      { event: 12, heat: 3, from: start, to: start + 61_200, finishes: 4 },
      { event: 12, heat: 4, from: start + 5 * 60_000, to: start + 5 * 60_000 + 61_200, finishes: 4 }
    ])
    // The horn of the first race is on the axis, though no click was made at it.
    expect(tl.from).toBeLessThan(start)

    for (const width of [390, 720]) {
      const svg = timelineSvg(tl, { width, timeZone: "UTC" })
      expect(svg).toContain('data-layout="races"')
      for (const gone of ["data-team-row", "data-y-grid", "data-y-tick", "data-backlog", "data-score-state", "data-legend-item=\"score-"]) expect(svg).not.toContain(gone)
      expect(tags(svg, "<path").filter((t) => t.includes("data-team=\"home\"") || t.includes("data-team=\"away\"")).length).toBe(0)
      expect(texts(svg)).not.toContain("Home")
      expect(texts(svg).join(" ")).not.toMatch(/Scores:/u)
      expect(svg).toContain('aria-label="Timeline of Pool: 8 finishes in 2 races"')

      // The races: a band from the start to the last touch, named by event and heat.
      expect(tags(svg, "data-race=\"\"").map((t) => [attr(t, "data-event"), attr(t, "data-heat"), Number(attr(t, "data-from")), Number(attr(t, "data-to"))]))
        .toEqual([["12", "3", start, start + 61_200], ["12", "4", start + 5 * 60_000, start + 5 * 60_000 + 61_200]])
      expect(texts(svg)).toEqual(expect.arrayContaining(["Event 12 · Heat 3", "Event 12 · Heat 4", "1st", "2nd", "3rd", "4th"]))
      expect(texts(svg)).not.toContain("5th")

      // Each finish on its place's row, in time along the axis; the press on a row of its own above them.
      const rowY = new Map(tags(svg, "data-place-row").map((t) => [Number(attr(t, "data-place-row")), Number(attr(t, "y1"))]))
      const marks = tags(svg, "data-mark")
      for (const { f, item } of [...first, ...second]) {
        const mark = marks.find((t) => attr(t, "data-item") === String(item.id))!
        expect(Number(attr(mark, "data-y")), `L${f.lane} on the ${f.place} row`).toBe(rowY.get(f.place))
      }
      const pressY = Number(attr(marks.find((t) => attr(t, "data-item") === String(press.id))!, "data-y"))
      expect(pressY).toBeLessThan(rowY.get(1)!)
      const x = (item: { readonly id: number }) => Number(attr(marks.find((t) => attr(t, "data-item") === String(item.id))!, "data-x"))
      expect(x(first[0]!.item)).toBeLessThan(x(press))
      expect(x(press)).toBeLessThan(x(second[0]!.item))

      // What the picture says under the chart: the finishes and what became of their clicks; the legend speaks of finishes.
      const summary = tags(svg, "data-finish-summary")[0]!
      expect([attr(summary, "data-finishes"), attr(summary, "data-races")]).toEqual(["8", "2"])
      expect(texts(svg).join(" · ")).toContain("Finishes: 8 in 2 races · 4 accepted, clip pending")
      expect(texts(svg).join(" · ")).toContain("4 in flight")
      expect(texts(svg).join(" ")).toMatch(/Rows: places, 1st at the top/u)
      expect(tags(svg, "data-legend-item").map((t) => attr(t, "data-legend-item"))).toEqual(["finish", "race", "press", "delivered", "in-flight"])
    }
  })

  it("keeps the score chart for a dual meet whose team scores are sent, and for any other sport", () => {
    const meet = new ItemLog("pool", "meet-1")
    heat(meet, start, 12, 3)
    meet.score({ timeStamp: start + 62_000, left: 5, right: 3, period: 1 })
    const dual = buildTimeline(input(meet))
    expect(dual.races).toBeNull()
    const svg = timelineSvg(dual, { width: 390, timeZone: "UTC" })
    expect(svg).toContain('data-layout="scores"')
    for (const kept of ["data-team-row=\"home\"", "data-y-grid", "data-backlog"]) expect(svg).toContain(kept)
    expect(texts(svg).join(" ")).toContain("Scores: 1 delivered")

    const court = new ItemLog("court-1", "ev-1")
    court.press(start, "home")
    expect(buildTimeline(input(court, "handball")).races).toBeNull()
    expect(timelineSvg(buildTimeline(input(court, "handball")))).toContain("data-team-row")
    expect(buildTimeline({ ...input(court), sport: null }).races).toBeNull()
  })

  it("says so when the pool's event has nothing yet, and draws a winner-only pool on one row", () => {
    const empty = timelineSvg(buildTimeline(input(new ItemLog("pool", "meet-1"))), { width: 390 })
    expect(texts(empty)).toContain("No finish or click yet for this event.")
    expect(empty).not.toContain("data-team-row")

    const winners = new ItemLog("pool", "meet-1")
    const f = finish(4, 1, "28.91", 28_910, start, { event: 3, heat: 1 })
    winners.click(finishClick(f), f.at)
    const svg = timelineSvg(buildTimeline(input(winners)), { width: 390, timeZone: "UTC" })
    expect(tags(svg, "data-place-row").map((t) => attr(t, "data-place-row"))).toEqual(["1"])
    expect(texts(svg)).toEqual(expect.arrayContaining(["1st", "L4", "Event 3 · Heat 1", "Finishes: 1 in 1 race · 1 accepted, clip pending"]))
    expect(svg).toContain('aria-label="Timeline of Pool: 1 finish in 1 race"')
  })
})
