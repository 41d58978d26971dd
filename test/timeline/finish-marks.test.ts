import { describe, expect, it } from "vitest"
import { buildTimeline, type TimelineInput } from "../../src/timeline/build-timeline.ts"
import { finishLabel, ordinal } from "../../src/timeline/finish-words.ts"
import { textWidth } from "../../src/timeline/svg-text.ts"
import { timelineSvg } from "../../src/timeline/timeline-svg.ts"
import { ItemLog } from "../../scripts/support/outbox-item-log.ts"
import { finish, finishClick } from "../status/race-events.ts"

/**
 * A pool's timeline: each `finish` click (metadata.rule "finish", metadata.finish) is marked with
 * its swimmer's lane and place, its time in the tooltip; built from outbox items as the status
 * server reads them.
 */

const start = Date.UTC(2025, 5, 14, 14, 0, 0)
const pool = (log: ItemLog): TimelineInput => ({ place: { key: "pool", name: "Pool" }, sport: "swimming", event: null, recent: log.recent(), followUps: log.followUps() })

/** A race of 8 lanes: the touches 28.91 s to 35.12 s after the start, as the rule clicks them. */
const race = (log: ItemLog, startAt: number, event = 12, heat = 3) =>
  [[4, 1, 28_910], [5, 2, 29_400], [3, 3, 30_020], [6, 4, 30_500], [2, 5, 31_870], [1, 6, 32_050], [7, 7, 33_480], [8, 8, 35_120]].map(([lane, place, ms]) => {
    const f = finish(lane!, place!, (ms! / 1000).toFixed(2), ms!, startAt, { event, heat })
    return { f, item: log.click(finishClick(f), f.at) }
  })

/** Each mark's opening tag and tooltip, by item id. */
const marks = (svg: string) =>
  new Map([...svg.matchAll(/<g data-mark=""([^>]*)><title>([^<]*)<\/title>/gu)].map((m) => [Number(/data-item="(\d+)"/u.exec(m[1]!)![1]), { attrs: m[1]!, title: m[2]! }]))

const labels = (svg: string) =>
  [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*data-finish-label="(\d+)">([^<]*)<\/text>/gu)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), item: Number(m[3]), text: m[4]! }))

describe("a finish on the timeline", () => {
  it("says 1st, 2nd, 3rd, 4th … 11th, 12th, 21st", () => {
    expect([1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 111].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th"])
    expect(finishLabel({ lane: 4, place: 1, time: "28.91" })).toBe("L4 · 1st")
  })

  it("is a mark carrying its lane, place and time; its tooltip says them with the event and heat; other clicks carry none", () => {
    const log = new ItemLog("pool", "meet-1")
    const swum = race(log, start)
    const press = log.press(start + 40_000, "none")
    const winner = swum[0]!
    log.follow(winner.item, "clip-ready", { angles: 1, videoURL: "https://media.example/lane-4.mp4", readyAt: winner.f.at + 12_000 })
    const tl = buildTimeline(pool(log))
    expect(tl.highlights.find((h) => h.itemId === winner.item.id)!.finish).toEqual({ lane: 4, place: 1, time: "28.91", event: 12, heat: 3 })
    expect(tl.highlights.find((h) => h.itemId === press.id)!.finish).toBeNull()

    const svg = timelineSvg(tl, { width: 720, timeZone: "UTC" })
    const mark = marks(svg).get(winner.item.id)!
    expect(mark.attrs).toContain('data-rule="finish"')
    expect(mark.attrs).toContain('data-finish-lane="4" data-finish-place="1" data-finish-time="28.91"')
    expect(mark.title).toBe("auto: finish · L4 · 1st · 28.91 · event 12 · heat 3 · 14:00:28 · clip ready in 12 s, 1 angle")
    expect(marks(svg).get(swum[7]!.item.id)!.title).toMatch(/^auto: finish · L8 · 8th · 35\.12 · event 12 · heat 3 · 14:00:35 · /u)
    expect(marks(svg).get(press.id)!.attrs).not.toContain("data-finish")
    expect(marks(svg).get(press.id)!.title).toMatch(/^press · no team · /u)
    expect(svg).toContain('data-legend-item="finish"')
    expect(svg).toContain("a finish (its time in the tooltip)")
  })

  it("at a pool, is labelled with its lane on its place's row, never over another label or mark of the row, whatever the width", () => {
    const log = new ItemLog("pool", "meet-1")
    const first = race(log, start)
    const second = race(log, start + 8 * 60_000, 13, 1)
    for (const width of [390, 720, 1600]) {
      const svg = timelineSvg(buildTimeline(pool(log)), { width, timeZone: "UTC" })
      const shown = labels(svg)
      const rowOf = new Map([...marks(svg)].map(([item, m]) => [item, Number(/data-y="([\d.]+)"/u.exec(m.attrs)![1])]))
      const xOf = new Map([...marks(svg)].map(([item, m]) => [item, Number(/data-x="([\d.]+)"/u.exec(m.attrs)![1])]))
      // Both races' winners, whatever the width: "L4" on the 1st row, beside its own mark.
      const winners = [first[0]!.item.id, second[0]!.item.id]
      expect(shown.filter((l) => winners.includes(l.item)).map((l) => l.text)).toEqual(["L4", "L4"])
      for (const l of shown) {
        const f = [...first, ...second].find((s) => s.item.id === l.item)!.f
        expect(l.text).toBe(`L${f.lane}`)
        expect(Math.abs(l.y - 3.5 - rowOf.get(l.item)!)).toBeLessThan(0.2)
        const w = textWidth(l.text, 10, true)
        expect([l.x >= 0, l.x + w <= width]).toEqual([true, true])
        // Clear of every other mark on its row (a mark is 15 px wide), and of every other label there.
        for (const [item, x] of xOf) {
          if (item !== l.item && rowOf.get(item) === rowOf.get(l.item)) expect(l.x + w < x - 7.5 || l.x > x + 7.5, `L${f.lane} clear of #${item}`).toBe(true)
        }
        for (const o of shown) if (o !== l && o.y === l.y) expect(l.x + w < o.x || o.x + textWidth(o.text, 10, true) < l.x).toBe(true)
      }
      expect(shown.length).toBeGreaterThanOrEqual(width === 390 ? 8 : 16)
    }
  })

  it("in a dual meet (team scores sent), is labelled with its lane and place above the no-team row, the best places first, never two labels over each other", () => {
    const log = new ItemLog("pool", "meet-1")
    log.score({ timeStamp: start - 60_000, left: 0, right: 0, period: 1 })
    const first = race(log, start)
    const second = race(log, start + 8 * 60_000, 13, 1)
    log.score({ timeStamp: start + 9 * 60_000, left: 5, right: 3, period: 1 })
    for (const width of [390, 720, 1600]) {
      const svg = timelineSvg(buildTimeline(pool(log)), { width, timeZone: "UTC" })
      expect(svg).toContain('data-layout="scores"')
      const shown = labels(svg)
      // Both races' winners, whatever the width: the touches of a race crowd, its winner is named.
      expect(shown.filter((l) => l.text === "L4 · 1st").map((l) => l.item).sort()).toEqual([first[0]!.item.id, second[0]!.item.id].sort())
      const spans = shown.map((l) => [l.x - textWidth(l.text, 10, true) / 2, l.x + textWidth(l.text, 10, true) / 2] as const).sort((a, b) => a[0] - b[0])
      for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThan(spans[i - 1]![1])
      for (const [from, to] of spans) expect([from >= 0, to <= width]).toEqual([true, true])
      expect(svg).toContain("L4 · 1st: a finish&#39;s lane and place (its time in the tooltip)")
    }
    // A race alone on the axis (60 s shown at least): its touches a second apart, more of them fit.
    const one = new ItemLog("pool", "meet-1")
    one.score({ timeStamp: start, left: 1, right: 0, period: 1 })
    race(one, start)
    const wide = labels(timelineSvg(buildTimeline(pool(one)), { width: 1600, timeZone: "UTC" })).map((l) => l.text)
    expect(wide[0]).toBe("L4 · 1st")
    expect(wide.length).toBeGreaterThan(2)
  })

  it("escapes a swimmer's name in its tooltip", () => {
    const log = new ItemLog("pool", "meet-1")
    const f = { ...finish(4, 1, "28.91", 28_910, start), swimmer: "<script>Ann</script> & \"Bo\"" }
    log.click(finishClick(f), f.at)
    const svg = timelineSvg(buildTimeline(pool(log)), { timeZone: "UTC" })
    expect(svg).toContain("L4 · 1st · 28.91 · event 12 · heat 3 · &lt;script&gt;Ann&lt;/script&gt; &amp; &quot;Bo&quot; · 14:00:28")
    expect(svg).not.toContain("<script")
  })
})
