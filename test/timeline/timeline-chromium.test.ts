import { mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildTimeline } from "../../src/timeline/build-timeline.ts"
import type { HighlightState, Timeline } from "../../src/timeline/timeline-model.ts"
import { highlightStyle } from "../../src/timeline/timeline-palette.ts"
import { timelineSvg } from "../../src/timeline/timeline-svg.ts"
import { resources } from "../scoreboard/harness.ts"
import { launchChromium, withoutChromium } from "../status/chromium.ts"
import { basketballQuarter, tennisMatch } from "../../scripts/support/timeline-matches.ts"
import { ItemLog } from "../../scripts/support/outbox-item-log.ts"
import { finish, finishClick } from "../status/race-events.ts"
import { overlaps, pixelsAt, rgbOf, type ShownMark, type ShownSvg, shownSvg, xOnAxis, yOnGrid } from "./shown-svg.ts"

/**
 * The timeline SVG opened on its own in headless Chromium (as /places/<key>/timeline.svg is,
 * parsed as XML), checked for what it shows: where each highlight sits and in what colour, the
 * sets, quarters and tie-break, the legend, and text that fits a phone.
 */

const artifacts = join(process.cwd(), "test-artifacts")

const poolStart = Date.UTC(2025, 5, 14, 14, 0, 0)

/** A heat of 8 lanes, its touches 28.91 s to 35.12 s after `startAt`, each clicked by the `finish` rule. */
const heat = (log: ItemLog, startAt: number, event: number, heatNumber: number, more: Parameters<ItemLog["click"]>[2] = {}) =>
  [[4, 1, 28_910], [5, 2, 29_400], [3, 3, 30_020], [6, 4, 30_500], [2, 5, 31_870], [1, 6, 32_050], [7, 7, 33_480], [8, 8, 35_120]].map(([lane, place, ms]) => {
    const f = finish(lane!, place!, (ms! / 1000).toFixed(2), ms!, startAt, { event, heat: heatNumber })
    return { f, item: log.click(finishClick(f), f.at, more) }
  })
const phone = { width: 390, height: 844 }

/** Opens the SVG as a document of its own; returns what the browser laid out and a screenshot. */
const open = async (page: Page, svg: string, file: string) => {
  await page.goto(`data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`)
  const png = await page.locator("svg").screenshot({ path: join(artifacts, file) })
  expect(statSync(join(artifacts, file)).size).toBeGreaterThan(5_000)
  return { shown: await shownSvg(page), png }
}

/** Where the colour of a mark is read: its centre, beside the strike of an undone one, on the ring of a hollow one. */
const samplePoint = (m: ShownMark) =>
  m.state === "undone"
    ? { x: m.shape.cx - 2.5, y: m.shape.cy - 2.5 }
    : highlightStyle[m.state as HighlightState].ring !== undefined
    ? { x: m.shape.left + 0.3, y: m.shape.cy }
    : { x: m.shape.cx, y: m.shape.cy }

/** The colour a mark shows at its sample point: the outline of a hollow one. */
const shownColour = (m: ShownMark) => {
  const style = highlightStyle[m.state as HighlightState]
  return style.ring !== undefined ? style.stroke : style.fill
}

const inside = (p: { x: number; y: number }, m: ShownMark) =>
  p.x >= m.shape.left - 1 && p.x <= m.shape.right + 1 && p.y >= m.shape.top - 1 && p.y <= m.shape.bottom + 1

/** In the screenshot, each mark that no later one touches at its sample point shows its state's colour; the states checked. */
const checkColours = async (page: Page, png: Buffer, shown: ShownSvg) => {
  const visible = shown.marks.filter((m, i) => !shown.marks.slice(i + 1).some((later) => inside(samplePoint(m), later)))
  const colours = await pixelsAt(page, png, visible.map(samplePoint))
  const checked = new Set<string>()
  visible.forEach((m, i) => {
    const want = rgbOf(shownColour(m))
    const got = colours[i]!
    expect(got.map((c, k) => Math.abs(c - want[k]!)).every((d) => d <= 12), `mark #${m.item} (${m.state}) shows ${got} not ${want}`).toBe(true)
    checked.add(m.state)
  })
  return checked
}

/** What every timeline must show, whatever the sport. */
const checkPicture = async (page: Page, png: Buffer, shown: ShownSvg, model: Timeline, viewportWidth: number) => {
  // It fits the screen, and every text fits the picture.
  expect(shown.svg.left).toBe(0)
  expect(shown.svg.right).toBeLessThanOrEqual(viewportWidth)
  for (const t of shown.texts) {
    expect(t.box.left, `"${t.text}" starts inside`).toBeGreaterThanOrEqual(shown.svg.left - 0.5)
    expect(t.box.right, `"${t.text}" ends inside`).toBeLessThanOrEqual(shown.svg.right + 0.5)
    expect(t.box.bottom, `"${t.text}" above the bottom`).toBeLessThanOrEqual(shown.svg.bottom + 0.5)
  }
  const labels = shown.ticks.flatMap((t) => (t.label === null ? [] : [t.label]))
  expect(labels.length, "clock labels on the time axis").toBeGreaterThanOrEqual(3)
  labels.slice(1).forEach((label, i) => expect(overlaps(labels[i]!, label), "clock labels apart").toBe(false))
  shown.legend.forEach((a, i) => shown.legend.slice(i + 1).forEach((b) => expect(overlaps(a.box, b.box), `legend ${a.key} / ${b.key}`).toBe(false)))
  for (const row of shown.teamRows) expect(row.name.right, `${row.team} name clear of its score`).toBeLessThan(row.score.left)

  // One mark per highlight, of its kind, at the x of its time on the drawn axis, in time order.
  expect(shown.marks.map((m) => m.item).sort((a, b) => a - b)).toEqual(model.highlights.map((h) => h.itemId).sort((a, b) => a - b))
  for (const m of shown.marks) {
    const h = model.highlights.find((x) => x.itemId === m.item)!
    expect([m.kind, m.state, m.rule ?? null, m.team]).toEqual([h.kind, h.state, h.rule, h.team])
    expect(Math.abs(m.shape.cx - xOnAxis(shown, m.at)), `mark #${m.item} at its time`).toBeLessThan(1)
  }
  const inTime = [...shown.marks].sort((a, b) => a.at - b.at || a.item - b.item)
  inTime.slice(1).forEach((m, i) => expect(m.shape.cx).toBeGreaterThanOrEqual(inTime[i]!.shape.cx - 0.01))
  // Presses are circles, auto-highlights diamonds: a diamond's box is wider than the circle's.
  const widthOf = (kind: string) => shown.marks.find((m) => m.kind === kind && m.state !== "merged")?.shape
  if (widthOf("press") !== undefined && widthOf("auto") !== undefined) {
    expect(widthOf("auto")!.right - widthOf("auto")!.left).toBeGreaterThan(widthOf("press")!.right - widthOf("press")!.left)
  }
  // Home marks on the upper row, away on the lower, no team between.
  const rowY = (team: string) => [...new Set(shown.marks.filter((m) => m.team === team && m.state !== "merged").map((m) => Math.round(m.shape.cy)))]
  for (const team of ["home", "away"]) expect(rowY(team).length, `${team} marks on one row`).toBeLessThanOrEqual(1)
  expect(rowY("home")[0]!).toBeLessThan(rowY("away")[0]!)
  if (rowY("none").length > 0) expect(rowY("none")[0]!).toBeGreaterThan(rowY("home")[0]!)

  // Periods: each boundary at its start, labels within their bands.
  for (const b of shown.boundaries) expect(Math.abs(b.x - xOnAxis(shown, model.periods.find((p) => p.period === b.period)!.from))).toBeLessThan(1)
  expect(shown.boundaries.map((b) => b.period)).toEqual(model.periods.slice(1).map((p) => p.period))
  for (const p of shown.periods) {
    if (p.shownLabel === null) continue
    expect(p.shownLabel.box.left).toBeGreaterThanOrEqual(p.band.left)
    expect(p.shownLabel.box.right).toBeLessThanOrEqual(p.band.right)
  }

  // The legend explains both kinds and every state on the picture.
  const keys = shown.legend.map((l) => l.key)
  for (const key of ["press", "auto", ...new Set(model.highlights.map((h) => h.state))]) expect(keys).toContain(key)

  return checkColours(page, png, shown)
}

describe.skipIf(withoutChromium)("the timeline in headless Chromium", () => {
  const res = resources()
  let context: BrowserContext
  let page: Page
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    context = await launchChromium(res, phone)
    // The clips the marks link to, served here: nothing leaves the machine.
    await context.route("https://media.example.com/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "the clip" }))
    page = await context.newPage()
  }, 20_000)
  afterAll(() => res.release())

  it("a tennis set with a tie-break, on a phone and a laptop: sets, tie-break, every highlight where and as they happened, ready clips linked", async () => {
    const match = tennisMatch()
    const model = buildTimeline(match.input)
    for (const width of [390, 720]) {
      await page.setViewportSize({ width, height: 700 })
      const { shown, png } = await open(page, timelineSvg(model, { width, timeZone: "UTC" }), `timeline-tennis-${width}.png`)
      const checked = await checkPicture(page, png, shown, model, width)
      expect([...checked].sort()).toEqual(["clip-ready", "delivered", "in-flight", "merged", "missed", "no-clip", "skipped", "undone"])

      // Clips: each ready one is a link to its video, opened in a new tab; no other mark links.
      const linked = shown.marks.filter((m) => m.link !== null)
      expect(linked.map((m) => m.item).sort((a, b) => a - b))
        .toEqual(model.highlights.filter((h) => h.state === "clip-ready").map((h) => h.itemId).sort((a, b) => a - b))
      expect(linked.length).toBeGreaterThan(5)
      for (const m of linked) expect(m.link).toEqual({ href: `https://media.example.com/clips/${m.item}.mp4`, target: "_blank" })
      const markOf = (item: { readonly id: number }) => shown.marks.find((m) => m.item === item.id)!
      expect(markOf(match.items.clipReady).title).toMatch(/ · clip ready in 25 s, 2 angles$/u)
      expect(markOf(match.items.noClip)).toMatchObject({ state: "no-clip", link: null })
      expect(markOf(match.items.noClip).title).toContain('no clip (service says "ready"): no camera filmed its window (camera 1 off)')
      expect(markOf(match.items.clipPending)).toMatchObject({ state: "delivered", link: null })
      expect(markOf(match.items.clipPending).title).toContain("accepted, clip pending · waiting for its clip (1 read so far)")
      const legend = Object.fromEntries(shown.legend.map((l) => [l.key, l.text]))
      expect(legend).toMatchObject({ "clip-ready": "clip ready", "no-clip": "no clip", "delivered": "accepted, clip pending" })

      // Clicking a ready clip's mark opens the clip; clicking the mark with no clip opens nothing.
      const ready = markOf(match.items.clipReady)
      const [tab] = await Promise.all([context.waitForEvent("page"), page.mouse.click(ready.shape.cx, ready.shape.cy)])
      await tab.waitForLoadState("domcontentloaded")
      expect(tab.url()).toBe(`https://media.example.com/clips/${match.items.clipReady.id}.mp4`)
      await tab.close()
      const noClip = markOf(match.items.noClip)
      const tabs = context.pages().length
      await page.mouse.click(noClip.shape.cx, noClip.shape.cy)
      await page.waitForTimeout(300)
      expect(context.pages()).toHaveLength(tabs)

      // The tie-break: a band from the first 6–6 to the set's end, labelled, with the set point in it.
      expect(shown.tieBreaks).toHaveLength(1)
      const tb = shown.tieBreaks[0]!
      expect(tb.set).toBe(2)
      expect(Math.abs(tb.band.left - xOnAxis(shown, match.tieBreakFrom))).toBeLessThan(1)
      expect(Math.abs(tb.band.right - xOnAxis(shown, match.set3From))).toBeLessThan(1)
      expect(["tie-break", "TB"]).toContain(tb.label.text)
      expect(tb.label.box.right).toBeGreaterThan(tb.band.left)
      expect(tb.label.box.left).toBeLessThan(tb.band.right)
      const setPoint = shown.marks.find((m) => m.rule === "set-point")!
      expect(setPoint.shape.cx).toBeGreaterThan(tb.band.left)
      expect(setPoint.shape.cx).toBeLessThan(tb.band.right)
      expect(shown.legend.map((l) => l.key)).toContain("tie-break")

      // Sets: boundaries where set 2 and 3 began; set 1's home line climbs to 6 games, set 2's to 7.
      expect(shown.boundaries.map((b) => [b.period, Math.round(b.x)])).toEqual([
        [2, Math.round(xOnAxis(shown, match.set2From))],
        [3, Math.round(xOnAxis(shown, match.set3From))]
      ])
      const line = (team: string, set: number) => shown.lines.find((l) => l.team === team && l.set === set)!.box
      expect(Math.abs(line("home", 1).top - (yOnGrid(shown, 6) - 1.2))).toBeLessThan(1.5)
      expect(Math.abs(line("home", 2).top - (yOnGrid(shown, 7) - 1.2))).toBeLessThan(1.5)
      expect(Math.abs(line("away", 1).top - (yOnGrid(shown, 2) + 1.2))).toBeLessThan(1.5)
      expect(Math.abs(line("home", 1).right - xOnAxis(shown, match.set2From))).toBeLessThan(1)
      expect(shown.periods.find((p) => p.period === 2)!.shownLabel?.text).toMatch(/^(Set 2 · 7–6|Set 2|S2)$/u)

      // The merged away auto: small, just below the press that replaced it.
      const merged = shown.marks.find((m) => m.state === "merged")!
      const replacing = shown.marks.find((m) => m.item === model.highlights.find((h) => h.itemId === merged.item)!.mergedInto)!
      expect([merged.team, replacing.kind, replacing.team]).toEqual(["away", "press", "away"])
      expect(merged.shape.top).toBeGreaterThanOrEqual(replacing.shape.bottom)

      // The backlog: the last two entries waiting, shown in the delivery strip at their times.
      const waiting = shown.rug.filter((r) => r.state === "pending")
      expect(waiting.map((r) => r.at)).toEqual(model.segments[2]!.points.slice(1).map((p) => p.at))
    }
  }, 30_000)

  it("a basketball quarter with auto-highlights: each at its score change, the quarters marked", async () => {
    const quarter = basketballQuarter()
    const model = buildTimeline(quarter.input)
    await page.setViewportSize(phone)
    const { shown, png } = await open(page, timelineSvg(model, { width: 390, timeZone: "UTC" }), "timeline-basketball-390.png")
    const checked = await checkPicture(page, png, shown, model, 390)
    expect([...checked].sort()).toEqual(["delivered", "in-flight", "merged", "undone"])

    const autos = shown.marks.filter((m) => m.kind === "auto").sort((a, b) => a.at - b.at)
    expect(autos.map((m) => m.rule)).toEqual(quarter.autos.map((a) => a.rules[0]))
    // Each auto-highlight stands over the entry that made it.
    for (const auto of autos) {
      const entry = shown.rug.find((r) => r.at === auto.at)
      expect(entry, `an entry under auto #${auto.item}`).toBeDefined()
      expect(Math.abs(entry!.x - auto.shape.cx)).toBeLessThan(1)
    }
    expect(shown.marks.filter((m) => m.kind === "press")).toHaveLength(1)
    // The merged auto and the press that replaced it 2 s later: both seen, the auto small just
    // above the home row (away from the away team's).
    const merged = shown.marks.find((m) => m.state === "merged")!
    const press = shown.marks.find((m) => m.kind === "press")!
    expect([merged.team, press.team]).toEqual(["home", "home"])
    expect(overlaps(merged.shape, press.shape)).toBe(false)
    expect(merged.shape.bottom).toBeLessThanOrEqual(press.shape.top)
    expect(merged.shape.right - merged.shape.left).toBeLessThan(press.shape.right - press.shape.left)

    expect(shown.periods.map((p) => p.label)).toEqual(["Q1", "Q2", "Q3"])
    expect(shown.periods.find((p) => p.label === "Q2")!.shownLabel?.text).toBe("Q2")
    expect(shown.boundaries.map((b) => b.period)).toEqual([2, 3])
    // The home line ends level at 37, as the board.
    const home = shown.lines.find((l) => l.team === "home")!.box
    expect(Math.abs(home.top - (yOnGrid(shown, 37) - 1.2))).toBeLessThan(1.5)
    expect(shown.texts.map((t) => t.text)).toEqual(expect.arrayContaining(["Lakeside Lions", "Harbor Hawks", "37"]))
  }, 30_000)

  it("a pool's two heats on a phone and a laptop: each finish at its touch on its place's row, labelled with its lane, the races named, no score chart", async () => {
    const log = new ItemLog("pool", "meet-1")
    const heats = [heat(log, poolStart, 12, 3), heat(log, poolStart + 6 * 60_000, 12, 4)]
    const winner = heats[0]![0]!
    log.follow(winner.item, "clip-ready", { angles: 1, videoURL: `https://media.example.com/clips/${winner.item.id}.mp4`, readyAt: winner.f.at + 12_000 })
    log.follow(heats[0]![7]!.item, "no-clip", { reason: "no camera filmed its window" })
    const late = heat(log, poolStart + 12 * 60_000, 13, 1, { state: "pending" })
    log.press(poolStart + 3 * 60_000, "none")
    const model = buildTimeline({ place: { key: "pool", name: "Pool" }, sport: "swimming", event: null, recent: log.recent(), followUps: log.followUps() })
    for (const width of [390, 720]) {
      await page.setViewportSize({ width, height: 700 })
      const { shown, png } = await open(page, timelineSvg(model, { width, timeZone: "UTC" }), `timeline-pool-${width}.png`)
      expect(shown.svg.right).toBeLessThanOrEqual(width)
      for (const t of shown.texts) {
        expect(t.box.left, `"${t.text}" starts inside`).toBeGreaterThanOrEqual(-0.5)
        expect(t.box.right, `"${t.text}" ends inside`).toBeLessThanOrEqual(shown.svg.right + 0.5)
      }
      const clock = shown.ticks.flatMap((t) => (t.label === null ? [] : [t.label]))
      expect(clock.length).toBeGreaterThanOrEqual(3)
      clock.slice(1).forEach((label, i) => expect(overlaps(clock[i]!, label), "clock labels apart").toBe(false))
      expect(shown.teamRows).toEqual([])
      expect(shown.yGrid).toEqual([])
      expect(shown.lines).toEqual([])
      expect(shown.rug).toEqual([])

      // Each mark at its time on the drawn axis; each finish on its place's row, 1st at the top.
      expect(shown.placeRows.map((r) => r.place)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      shown.placeRows.slice(1).forEach((r, i) => expect(r.y).toBeGreaterThan(shown.placeRows[i]!.y))
      for (const { f, item } of [...heats.flat(), ...late]) {
        const mark = shown.marks.find((m) => m.item === item.id)!
        expect(Math.abs(mark.shape.cx - xOnAxis(shown, f.at)), `L${f.lane} at its touch`).toBeLessThan(1)
        expect(Math.abs(mark.shape.cy - shown.placeRows.find((r) => r.place === f.place)!.y), `L${f.lane} on its row`).toBeLessThan(1)
      }
      const press = shown.marks.find((m) => m.kind === "press")!
      expect(press.shape.bottom).toBeLessThan(shown.placeRows[0]!.y - 7)

      // Lane labels: beside their marks, clear of every mark, label and place name; the races named apart.
      expect(shown.finishLabels.length).toBeGreaterThanOrEqual(8)
      for (const l of shown.finishLabels) {
        const f = [...heats.flat(), ...late].find((s) => s.item.id === l.item)!.f
        expect(l.text).toBe(`L${f.lane}`)
        for (const m of shown.marks) expect(overlaps(l.box, m.shape), `${l.text} (#${l.item}) clear of mark #${m.item}`).toBe(false)
        for (const r of shown.placeRows) expect(overlaps(l.box, r.label)).toBe(false)
        for (const o of shown.finishLabels) if (o !== l) expect(overlaps(l.box, o.box)).toBe(false)
      }
      expect(shown.raceLabels.map((l) => l.text)).toEqual(expect.arrayContaining(["Event 13 · Heat 1"]))
      shown.raceLabels.forEach((a, i) => shown.raceLabels.slice(i + 1).forEach((b) => expect(overlaps(a.box, b.box)).toBe(false)))
      shown.legend.forEach((a, i) => shown.legend.slice(i + 1).forEach((b) => expect(overlaps(a.box, b.box), `legend ${a.key} / ${b.key}`).toBe(false)))
      expect(shown.legend.map((l) => l.key)).toEqual(["finish", "race", "press", "clip-ready", "delivered", "no-clip", "in-flight"])

      expect([...await checkColours(page, png, shown)].sort()).toEqual(["clip-ready", "delivered", "in-flight", "no-clip"])
      expect(shown.marks.find((m) => m.item === winner.item.id)!.link).toEqual({ href: `https://media.example.com/clips/${winner.item.id}.mp4`, target: "_blank" })
    }
  }, 30_000)

  it("parses as XML and shows hostile names as text, whatever they contain", async () => {
    const match = tennisMatch()
    const name = "<script>alert(1)</script> & \"Ω\" \u0000\u0007 ]]>"
    const svg = timelineSvg(buildTimeline({ ...match.input, event: { key: "ev-tennis", homeTeam: name, awayTeam: "B & B" } }), { width: 390 })
    await page.goto(`data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`)
    const parsed = await page.evaluate(`(() => ({
      error: document.querySelector("parsererror")?.textContent ?? null,
      scripts: document.querySelectorAll("script").length,
      home: document.querySelector('[data-team-name="home"]').textContent,
      away: document.querySelector('[data-team-name="away"]').textContent
    }))()`) as { error: string | null; scripts: number; home: string; away: string }
    expect(parsed).toMatchObject({ error: null, scripts: 0, away: "B & B" })
    // Cut to fit the phone, but what is shown is the name's own text.
    expect(name.replace(/[\u0000\u0007]/gu, "").startsWith(parsed.home.replace(/…$/u, ""))).toBe(true)
    expect(parsed.home.startsWith("<script>")).toBe(true)
  }, 20_000)
})
