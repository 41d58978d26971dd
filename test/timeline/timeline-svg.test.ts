import { describe, expect, it } from "vitest"
import { buildTimeline } from "../../src/timeline/build-timeline.ts"
import { escapeXml, fitText, textWidth } from "../../src/timeline/svg-text.ts"
import { timelineSvg } from "../../src/timeline/timeline-svg.ts"
import { basketballQuarter, clipOf, tennisMatch } from "../../scripts/support/timeline-matches.ts"
import { ItemLog } from "../../scripts/support/outbox-item-log.ts"

/** The opening tags that carry the attribute. */
const tagsWith = (svg: string, attribute: string) =>
  [...svg.matchAll(new RegExp(`<[a-z]+ [^>]*\\b${attribute}=[^>]*>`, "gu"))].map((m) => m[0])

const hostile = "<script>alert(1)</script> & \"quoted\" 'single' \u0000\u0007\uFFFF \uD800 ]]>"

describe("the timeline SVG", () => {
  it("is one standalone SVG document: sized, with a viewBox, no script, nothing loaded from elsewhere", () => {
    const svg = timelineSvg(buildTimeline(tennisMatch().input), { width: 390 })
    expect(svg).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="390" height="\d+" viewBox="0 0 390 \d+"/u)
    expect(svg).not.toMatch(/<script|<foreignObject|<image|<use|\bon[a-z]+=|javascript:|@import/iu)
    // The URLs are the namespace and the ready clips' links; the only url() the hatch defined in the document.
    const urls = [...svg.matchAll(/https?:\/\/[^"]+/gu)].map((m) => m[0])
    const links = [...svg.matchAll(/<a href="([^"]+)" target="_blank" rel="noopener noreferrer" data-clip-link="\d+">/gu)].map((m) => m[1])
    expect(links.length).toBeGreaterThan(5)
    expect(urls).toEqual(["http://www.w3.org/2000/svg", ...links])
    expect(new Set([...svg.matchAll(/url\(([^)]*)\)/gu)].map((m) => m[1]))).toEqual(new Set(["#tie-break"]))
    expect(svg).toContain('<pattern id="tie-break"')
  })

  it("escapes every text from devices and the network, and drops characters XML forbids", () => {
    const log = new ItemLog("court-9", "ev-<x>")
    log.score({ timeStamp: 1_000_000, left: 1, right: 0, period: 1 })
    log.auto(1_000_000, "home", [hostile], { state: "missed", lastError: hostile })
    const svg = timelineSvg(buildTimeline({
      place: { key: "court-9", name: hostile },
      sport: "handball",
      event: { key: "ev-<x>", homeTeam: hostile, awayTeam: "A & B" },
      recent: log.recent(),
      followUps: log.followUps()
    }), { width: 1600 })
    expect(svg).not.toContain("<script")
    expect(svg).not.toMatch(/[\u0000-\u0008\uFFFF]|\uD800/u)
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;")
    expect(svg).toContain('data-event="ev-&lt;x&gt;"')
    expect(svg).toContain("A &amp; B")
    // Every & starts an entity: nothing raw slipped through.
    expect(svg.match(/&(?!amp;|lt;|gt;|quot;|#39;)/gu)).toBeNull()
  })

  it("marks every highlight with its kind, rule and state, a merged one naming its press", () => {
    const quarter = basketballQuarter()
    const svg = timelineSvg(buildTimeline(quarter.input))
    const marks = tagsWith(svg, "data-mark")
    expect(marks).toHaveLength(quarter.autos.length + 1)
    expect(marks.filter((m) => m.includes('data-kind="auto"'))).toHaveLength(quarter.autos.length)
    expect(marks.filter((m) => m.includes('data-kind="press"'))).toHaveLength(1)
    expect(marks.filter((m) => m.includes('data-rule="lead-change"')).length).toBeGreaterThan(0)
    expect(marks.some((m) => m.includes('data-rules="score lead-change"'))).toBe(true)
    const merged = marks.find((m) => m.includes('data-state="merged"'))!
    expect(merged).toContain(`data-team="home" data-at="${quarter.items.mergedAuto.createdAt}" data-item="${quarter.items.mergedAuto.id}"`)
    expect(merged).toContain(`data-merged-into="${quarter.items.press.id}"`)
    expect(marks.find((m) => m.includes(`data-item="${quarter.items.undoneAuto.id}"`))).toContain('data-state="undone" data-team="away"')
    expect(tagsWith(svg, "data-period")).toHaveLength(3)
    expect(tagsWith(svg, "data-backlog")[0]).toContain('data-pending="1" data-delivered="22"')
  })

  it("links a ready clip's mark to its video, says why a mark has no clip, and names both in the legend", () => {
    const log = new ItemLog()
    log.score({ timeStamp: 1_000_000, left: 1, right: 0, period: 1 })
    const ready = log.press(1_010_000, "home")
    const none = log.auto(1_020_000, "away", ["score"])
    const awaited = log.press(1_030_000, "home")
    log.follow(ready, "clip-ready", clipOf(ready))
    log.follow(none, "no-clip", { reason: "camera 2 was off" })
    log.follow(awaited, null)
    const svg = timelineSvg(buildTimeline({ place: { key: "court-1", name: "Court 1" }, sport: "handball", event: null, recent: log.recent(), followUps: log.followUps() }), { timeZone: "UTC" })
    const markOf = (id: number) => svg.slice(svg.indexOf(`data-item="${id}"`) - 300, svg.indexOf("</g>", svg.indexOf(`data-item="${id}"`)))
    expect(markOf(ready.id)).toMatch(new RegExp(`<a href="https://media\\.example\\.com/clips/${ready.id}\\.mp4" target="_blank" rel="noopener noreferrer" data-clip-link="${ready.id}"><g data-mark="" data-kind="press" data-state="clip-ready"`, "u"))
    expect(markOf(ready.id)).toContain("<title>press · Home · 00:16:50 · clip ready in 25 s, 2 angles</title>")
    expect(markOf(none.id)).toContain('data-state="no-clip"')
    expect(markOf(none.id)).toContain("<title>auto: score · Away · 00:17:00 · no clip: camera 2 was off</title>")
    expect(markOf(awaited.id)).toContain('data-state="delivered"')
    expect(markOf(awaited.id)).toContain("accepted, clip pending · waiting for its clip</title>")
    // One link: the clip that exists.
    expect(svg.match(/<a /gu)).toHaveLength(1)
    const legend = [...svg.matchAll(/data-legend-item="([^"]+)"><circle[^>]*\/?>(?:<[^>]*>)*?<text[^>]*>([^<]+)</gu)].map((m) => [m[1], m[2]])
    expect(legend).toEqual(expect.arrayContaining([["clip-ready", "clip ready"], ["delivered", "accepted, clip pending"], ["no-clip", "no clip"]]))
    // Without them, neither is in the legend.
    const unfollowed = timelineSvg(buildTimeline(basketballQuarter().input))
    expect(unfollowed).toContain('data-legend-item="delivered"')
    expect(unfollowed).not.toMatch(/data-legend-item="(clip-ready|no-clip)"|<a /u)
  })

  it("links only an http(s) clip, its address escaped, and not one an undo is taking back", () => {
    const log = new ItemLog()
    const script = log.press(1_000_000, "home")
    const quoted = log.press(1_010_000, "away")
    const takenBack = log.press(1_020_000, "home")
    log.follow(script, "clip-ready", { videoURL: "javascript:alert(1)" })
    log.follow(quoted, "clip-ready", { videoURL: `https://media.example.com/a"b<c>&d.mp4` })
    log.follow(takenBack, "clip-ready", clipOf(takenBack))
    log.undo(takenBack, 1_023_000, { state: "pending" })
    const svg = timelineSvg(buildTimeline({ place: { key: "court-1", name: "Court 1" }, sport: "handball", event: null, recent: log.recent(), followUps: log.followUps() }))
    expect(svg).not.toContain("javascript:")
    expect(svg.match(/<a href="([^"]*)"/gu)).toEqual(['<a href="https://media.example.com/a%22b%3Cc%3E&amp;d.mp4"'])
    expect(tagsWith(svg, "data-state").filter((t) => t.includes('data-state="clip-ready"'))).toHaveLength(2)
    expect(tagsWith(svg, "data-state").find((t) => t.includes(`data-item="${takenBack.id}"`))).toContain('data-state="undone"')
  })

  it("keeps its width within 320–1600 px and says so when the event has nothing yet", () => {
    const empty = buildTimeline({ place: { key: "court-2", name: "Court 2" }, sport: "basketball", event: null, recent: [], followUps: [] })
    expect(timelineSvg(empty, { width: 100 })).toContain('width="320"')
    expect(timelineSvg(empty, { width: 5000 })).toContain('width="1600"')
    expect(timelineSvg(empty, {})).toContain('width="720"')
    expect(timelineSvg(empty)).toMatch(/data-empty="">No score entry or highlight yet/u)
    expect(timelineSvg(empty)).not.toContain("data-mark")
  })
})

describe("fitting text without a layout engine", () => {
  it("cuts with an ellipsis to the width, and never estimates a wide text narrower than a narrow one", () => {
    expect(fitText("Lakeside Lions", 500, 13)).toBe("Lakeside Lions")
    const cut = fitText("Lakeside Lions Basketball Club", 100, 13)
    expect(cut.endsWith("…")).toBe(true)
    expect(textWidth(cut, 13)).toBeLessThanOrEqual(100)
    expect(textWidth("WWWW", 12)).toBeGreaterThan(textWidth("iiii", 12))
    expect(fitText("anything", 2, 13)).toBe("")
    expect(escapeXml("a\u0001b")).toBe("ab")
  })
})
