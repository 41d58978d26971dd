import { clockLabel, scoreTicks } from "./time-ticks.ts"
import type { ScoreBacklog, ScorePoint, Timeline } from "./timeline-model.ts"
import { scoreStateStyle, teamColour, tieBreakColour } from "./timeline-palette.ts"
import { escapeXml, fitText, ink, muted, tag, text, textWidth, wrap } from "./svg-text.ts"
import { timeAxisSvg } from "./time-axis-svg.ts"
import { legendSvg } from "./timeline-legend.ts"
import { markSvg } from "./mark-svg.ts"
import { finishLabels } from "./finish-labels.ts"
import { finishSummarySvg, raceChartSvg } from "./race-chart-svg.ts"

export interface SvgOptions {
  /** Layout width in CSS pixels: text stays at its size, the time axis stretches. */
  readonly width?: number
  /** Zone of the clock labels; the bridge's own by default (the venue's clock). */
  readonly timeZone?: string
}

export const svgWidths = { min: 320, max: 1600, default: 720 } as const

const pad = 10
const fonts = "DejaVu Sans, system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif"

/** Vertical layout of the chart, top to bottom. */
interface Frame {
  readonly left: number
  readonly right: number
  readonly labelTop: number
  readonly stripTop: number
  readonly plotTop: number
  readonly plotBottom: number
  readonly rugTop: number
  readonly axisBaseline: number
  readonly bottom: number
  readonly x: (t: number) => number
  readonly y: (v: number) => number
}

const rowOf = { home: 17, none: 29, away: 41 } as const
const stripHeight = 56
// A merged auto-highlight is drawn small beside its row, on the side away from the other team's:
// the press that replaced it, seconds later, would otherwise cover it.
const mergedOffset = { home: -11, none: -11, away: 11 } as const
const rugHeight = 8

const header = (tl: Timeline, width: number): { readonly svg: string; readonly height: number } => {
  const inner = width - 2 * pad
  const title = text(pad, 19, 15, fitText(tl.place.name, inner, 15, true), { "font-weight": 700, "data-title": "" })
  const sub = [tl.sport ?? "sport not set", tl.eventKey === null ? "no event known" : `event ${tl.eventKey}`].join(" · ")
  const subtitle = text(pad, 36, 11.5, fitText(sub, inner, 11.5), { fill: muted })
  const teamRow = (team: "home" | "away", baseline: number) => {
    const score = tl.scoreText?.[team] ?? "—"
    const scoreWidth = textWidth(score, 14, true)
    const name = fitText(tl.teams[team], inner - 22 - scoreWidth - 10, 13, true)
    return tag("g", { "data-team-row": team }, [
      tag("rect", { x: pad, y: baseline - 8, width: 16, height: 4, rx: 2, fill: teamColour[team] }),
      text(pad + 22, baseline, 13, name, { "font-weight": 600, "data-team-name": team }),
      text(width - pad, baseline, 14, score, { "font-weight": 700, "text-anchor": "end", "data-team-score": team })
    ].join(""))
  }
  // A pool without team scores has no teams to name: its races are the picture.
  if (tl.races !== null) return { svg: title + subtitle, height: 44 }
  return { svg: title + subtitle + teamRow("home", 58) + teamRow("away", 77), height: 86 }
}

const frameOf = (tl: Timeline, width: number, top: number): Frame => {
  const left = pad + 24
  const right = width - pad - 4
  const labelTop = top
  const stripTop = labelTop + 16
  const plotTop = stripTop + stripHeight + 4
  const plotBottom = plotTop + (width < 520 ? 150 : 190)
  const rugTop = plotBottom + 3
  const axisBaseline = rugTop + rugHeight + 15
  const span = Math.max(tl.to - tl.from, 1)
  const yTop = tl.yMax * 1.08
  return {
    left,
    right,
    labelTop,
    stripTop,
    plotTop,
    plotBottom,
    rugTop,
    axisBaseline,
    bottom: axisBaseline + 8,
    x: (t) => left + ((t - tl.from) / span) * (right - left),
    y: (v) => plotBottom - (v / yTop) * (plotBottom - plotTop)
  }
}

const periodBands = (tl: Timeline, f: Frame): string =>
  tl.periods.map((p, i) => {
    const x1 = f.x(Math.max(tl.from, p.from))
    const x2 = f.x(Math.min(tl.to, p.to))
    const band = tag("rect", {
      x: x1,
      y: f.labelTop,
      width: Math.max(x2 - x1, 0),
      height: f.plotBottom - f.labelTop,
      fill: i % 2 === 0 ? "#f1f5f9" : "#ffffff",
      "data-period": p.period,
      "data-label": p.label,
      "data-from": p.from,
      "data-to": p.to
    })
    const boundary = i === 0
      ? ""
      : tag("line", { x1, x2: x1, y1: f.labelTop, y2: f.plotBottom, stroke: "#94a3b8", "stroke-dasharray": "3 2", "data-boundary": p.period })
    const short = p.label.startsWith("Set ") ? `S${p.period}` : p.label
    const label = [p.result === null ? undefined : `${p.label} · ${p.result}`, p.label, short]
      .find((l) => l !== undefined && textWidth(l, 11, true) <= x2 - x1 - 4)
    return band + boundary + (label === undefined
      ? ""
      : text((x1 + x2) / 2, f.labelTop + 12, 11, label, { "text-anchor": "middle", "font-weight": 600, fill: "#334155", "data-period-label": p.period }))
  }).join("")

const tieBreaks = (tl: Timeline, f: Frame): string =>
  tl.tieBreaks.map((tb) => {
    const x1 = f.x(tb.from)
    const x2 = Math.max(f.x(tb.to), x1 + 3)
    const label = (x2 - x1) >= textWidth("tie-break", 10, true) ? "tie-break" : "TB"
    const half = textWidth(label, 10, true) / 2 + 2
    const cx = Math.min(Math.max((x1 + x2) / 2, f.left + half), f.right - half)
    return tag("g", { "data-tiebreak": "", "data-set": tb.set, "data-from": tb.from, "data-to": tb.to }, [
      tag("rect", { x: x1, y: f.stripTop, width: x2 - x1, height: f.plotBottom - f.stripTop, fill: "url(#tie-break)", stroke: tieBreakColour, "stroke-width": 1 }),
      tag("title", {}, escapeXml(`Set ${tb.set} tie-break (last shown ${tb.points})`)),
      text(cx, f.plotBottom - 5, 10, label, {
        "text-anchor": "middle",
        "font-weight": 700,
        fill: "#92400e",
        stroke: "#ffffff",
        "stroke-width": 3,
        "paint-order": "stroke",
        "data-tiebreak-label": tb.set
      })
    ].join(""))
  }).join("")

const scoreAxis = (tl: Timeline, f: Frame, narrow: boolean): string =>
  scoreTicks(tl.yMax, narrow ? 4 : 6).map((v) =>
    tag("line", { x1: f.left, x2: f.right, y1: f.y(v), y2: f.y(v), stroke: "#e2e8f0", "stroke-width": 1, "data-y-grid": v }) +
    text(f.left - 4, f.y(v) + 3.5, 10, String(v), { "text-anchor": "end", fill: muted, "data-y-tick": v })
  ).join("")

const scoreLines = (tl: Timeline, f: Frame): string =>
  tl.segments.flatMap((segment, i) => {
    const last = i === tl.segments.length - 1
    return (["home", "away"] as const).map((team) => {
      // Level scores would hide one line under the other: each is nudged to its side.
      const nudge = team === "home" ? -1.2 : 1.2
      const value = (p: ScorePoint) => f.y(p[team]) + nudge
      const [first, ...rest] = segment.points
      if (first === undefined) return ""
      const d = [`M${f.x(first.at).toFixed(1)} ${value(first).toFixed(1)}`,
        ...rest.map((p) => `H${f.x(p.at).toFixed(1)}V${value(p).toFixed(1)}`),
        `H${f.x(last ? tl.to : segment.points.at(-1)!.at).toFixed(1)}`].join("")
      return tag("path", {
        d,
        fill: "none",
        stroke: teamColour[team],
        "stroke-width": 2.5,
        "stroke-linejoin": "round",
        "data-team": team,
        "data-set": segment.set,
        "data-last": segment.points.at(-1)![team]
      })
    })
  }).join("")

/** One tick per entry under the chart, coloured by delivery: where the backlog is. */
const deliveryRug = (tl: Timeline, f: Frame): string => {
  const seen = new Set<number>()
  const points = tl.segments.flatMap((s) => s.points).filter((p) => !seen.has(p.itemId) && seen.add(p.itemId))
  // Delivered first, so a waiting entry among them stays visible.
  const ordered = [...points.filter((p) => p.state === "delivered"), ...points.filter((p) => p.state !== "delivered")]
  return tag("rect", { x: f.left, y: f.rugTop, width: f.right - f.left, height: rugHeight, fill: "#f8fafc" }) +
    ordered.map((p) =>
      tag("rect", {
        x: f.x(p.at) - 1,
        y: f.rugTop,
        width: 2,
        height: rugHeight,
        fill: scoreStateStyle[p.state].fill,
        "data-score-state": p.state,
        "data-item": p.itemId,
        "data-at": p.at
      }, tag("title", {}, escapeXml(`${p.text}: ${scoreStateStyle[p.state].label}`)))
    ).join("")
}

const highlightMarks = (tl: Timeline, f: Frame, timeZone: string | undefined): string => {
  const rows = (["home", "away"] as const).map((team) =>
    tag("rect", { x: pad + 6, y: f.stripTop + rowOf[team] - 4, width: 8, height: 8, rx: 2, fill: teamColour[team], "data-row": team })
  ).join("")
  const strip = tag("rect", { x: f.left, y: f.stripTop, width: f.right - f.left, height: stripHeight, fill: "#ffffff", "fill-opacity": 0.55 })
  const marks = tl.highlights.map((h) =>
    markSvg(tl, h, f.x(h.at), f.stripTop + rowOf[h.team] + (h.state === "merged" ? mergedOffset[h.team] : 0), f.plotBottom, timeZone)
  ).join("")
  // Above the no-team row, where a finish's mark sits.
  const labels = finishLabels(tl.highlights, { x: f.x, left: f.left, right: f.right, baseline: f.stripTop + rowOf.none - 11 })
  return strip + rows + marks + labels
}

const backlogText = (backlog: ScoreBacklog, width: number, top: number, timeZone: string | undefined) => {
  const parts = [
    `Scores: ${backlog.delivered} delivered`,
    backlog.pending === 0 ? "none waiting" : `${backlog.pending} waiting since ${clockLabel(backlog.oldestPendingAt!, true, timeZone)}`,
    ...(backlog.warning === 0 ? [] : [`${backlog.warning} dropped (no event)`]),
    ...(backlog.dead === 0 ? [] : [`${backlog.dead} refused`])
  ]
  const lines = wrap(parts, width - 2 * pad, 11.5)
  const svg = tag("g", {
    "data-backlog": "",
    "data-pending": backlog.pending,
    "data-delivered": backlog.delivered,
    "data-warning": backlog.warning,
    "data-dead": backlog.dead,
    "data-oldest-pending": backlog.oldestPendingAt ?? undefined
  }, lines.map((line, i) =>
    text(pad, top + 14 + i * 16, 11.5, line, { fill: backlog.pending > 0 || backlog.dead > 0 ? "#6d28d9" : ink, "font-weight": 600 })
  ).join(""))
  return { svg, height: 8 + lines.length * 16 }
}

const defs = tag("defs", {}, tag("pattern", { id: "tie-break", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
  tag("rect", { width: 6, height: 6, fill: tieBreakColour, "fill-opacity": 0.12 }) +
  tag("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: tieBreakColour, "stroke-width": 2.2, "stroke-opacity": 0.5 })))

/** The score chart under the header: periods, tie-breaks, score lines, the delivery strip, the highlights, the backlog, the legend. */
const scoreChart = (tl: Timeline, width: number, top: number, timeZone: string | undefined) => {
  const f = frameOf(tl, width, top + 4)
  const chart = tag("g", { "data-chart": "" }, [
    periodBands(tl, f),
    tieBreaks(tl, f),
    scoreAxis(tl, f, width < 520),
    scoreLines(tl, f),
    deliveryRug(tl, f),
    highlightMarks(tl, f, timeZone),
    timeAxisSvg(tl, { x: f.x, left: f.left, right: f.right, tickTop: f.rugTop + rugHeight, baseline: f.axisBaseline }, pad, timeZone)
  ].join(""))
  const backlog = backlogText(tl.backlog, width, f.bottom, timeZone)
  const legend = legendSvg(tl, width, pad, f.bottom + backlog.height)
  return { svg: chart + backlog.svg + legend.svg, bottom: f.bottom + backlog.height + legend.height }
}

/** A pool's chart under the header (no team scores): races and finishes by place, their summary, the legend. */
const raceChart = (tl: Timeline, width: number, top: number, timeZone: string | undefined) => {
  const chart = raceChartSvg(tl, width, pad, top + 4, timeZone)
  const summary = finishSummarySvg(tl, width, pad, chart.bottom)
  const legend = legendSvg(tl, width, pad, chart.bottom + summary.height)
  return { svg: chart.svg + summary.svg + legend.svg, bottom: chart.bottom + summary.height + legend.height }
}

const emptyWords = (tl: Timeline) =>
  tl.races === null ? "No score entry or highlight yet for this event." : "No finish or click yet for this event."

const describe = (tl: Timeline) => {
  const finishes = tl.races?.reduce((n, r) => n + r.finishes, 0)
  return tl.races === null
    ? `Timeline of ${tl.place.name}: ${tl.teams.home} vs ${tl.teams.away}`
    : `Timeline of ${tl.place.name}: ${finishes} ${finishes === 1 ? "finish" : "finishes"} in ${tl.races.length} ${tl.races.length === 1 ? "race" : "races"}`
}

/**
 * The timeline as a standalone SVG document: no script, nothing loaded from elsewhere (a ready
 * clip's mark only links to it), every text escaped. Elements that carry meaning have data-*
 * attributes (kind, rule, state, period, race, times in ms) so the picture can be checked, not
 * only looked at. A pool without team scores (`races`) is drawn as its finishes by place.
 */
export const timelineSvg = (tl: Timeline, options: SvgOptions = {}): string => {
  const width = Math.min(Math.max(Math.round(options.width ?? svgWidths.default), svgWidths.min), svgWidths.max)
  const head = header(tl, width)
  const parts: Array<string> = [tag("rect", { width, height: "100%", fill: "#ffffff" }), head.svg]
  let bottom = head.height
  if (tl.segments.length === 0 && tl.highlights.length === 0) {
    parts.push(text(pad, bottom + 24, 13, fitText(emptyWords(tl), width - 2 * pad, 13), { fill: muted, "data-empty": "" }))
    bottom += 40
  } else {
    const chart = (tl.races === null ? scoreChart : raceChart)(tl, width, bottom, options.timeZone)
    parts.push(chart.svg)
    bottom = chart.bottom
  }
  const height = Math.ceil(bottom + 6)
  const description = describe(tl)
  return `<?xml version="1.0" encoding="UTF-8"?>\n` + tag("svg", {
    xmlns: "http://www.w3.org/2000/svg",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": description,
    "font-family": fonts,
    "data-place": tl.place.key,
    "data-event": tl.eventKey ?? undefined,
    "data-sport": tl.sport ?? undefined,
    "data-shape": tl.shape,
    "data-layout": tl.races === null ? "scores" : "races",
    "data-from": tl.from,
    "data-to": tl.to
  }, tag("title", {}, escapeXml(description)) + defs + parts.join("")) + "\n"
}
