import type { HighlightState, ScoreState, Timeline } from "./timeline-model.ts"
import { highlightStyle, scoreStateStyle, tieBreakColour } from "./timeline-palette.ts"
import { escapeXml, tag, textWidth, wrap } from "./svg-text.ts"
import { markShape } from "./mark-shape.ts"

const size = 11
const rowHeight = 18

interface LegendItem {
  readonly key: string
  readonly label: string
  /** The swatch, drawn centred on (x, y). */
  readonly swatch: (x: number, y: number) => string
}

// A finish's mark is an auto-highlight: the legend says what its label means, and where its time is.
const finishItem: LegendItem = {
  key: "finish",
  label: "L4 · 1st: a finish's lane and place (its time in the tooltip)",
  swatch: (x, y) => markShape("auto", x, y, "#ffffff", "#0f172a")
}

const scaleWords = { tennis: "games in each set", volleyball: "points in each set", generic: "points" } as const

// States always explained, so the legend reads the same before anything went wrong or any clip
// came: sent, and accepted by the service. The others (a ready clip too) appear with their first mark.
const alwaysShown: ReadonlyArray<HighlightState> = ["delivered", "in-flight"]

const stateItem = (state: HighlightState): LegendItem => ({
  key: state,
  label: highlightStyle[state].label,
  swatch: (x, y) =>
    tag("circle", {
      cx: x,
      cy: y,
      r: 5.5,
      fill: highlightStyle[state].fill,
      stroke: highlightStyle[state].stroke === "#ffffff" ? "none" : highlightStyle[state].stroke,
      "stroke-width": highlightStyle[state].ring
    }) +
    (state === "undone" ? tag("line", { x1: x - 4, y1: y + 4, x2: x + 4, y2: y - 4, stroke: "#1e293b", "stroke-width": 1.6 }) : "")
})

const pressItem: LegendItem = { key: "press", label: "press", swatch: (x, y) => markShape("press", x, y, "#ffffff", "#475569") }
const autoItem: LegendItem = { key: "auto", label: "auto-highlight", swatch: (x, y) => markShape("auto", x, y, "#ffffff", "#475569") }

/** The states explained: accepted and in flight always, the others once a mark shows them. */
const statesShown = (tl: Timeline): ReadonlyArray<HighlightState> =>
  (Object.keys(highlightStyle) as Array<HighlightState>).filter((s) => alwaysShown.includes(s) || tl.highlights.some((h) => h.state === s))

/** A score chart's legend: both highlight kinds (and a finish's label when there is one), the states, the tie-break hatch, the delivery strip. */
const scoreItems = (tl: Timeline): ReadonlyArray<LegendItem> => {
  const scoreStates = new Set<ScoreState>(["delivered", ...tl.segments.flatMap((s) => s.points.map((p) => p.state))])
  return [
    pressItem,
    autoItem,
    ...(tl.highlights.some((h) => h.finish !== null) ? [finishItem] : []),
    ...statesShown(tl).map(stateItem),
    ...(tl.tieBreaks.length === 0 ? [] : [{
      key: "tie-break",
      label: "tie-break",
      swatch: (x: number, y: number) => tag("rect", { x: x - 6, y: y - 5, width: 12, height: 10, fill: "url(#tie-break)", stroke: tieBreakColour })
    }]),
    ...[...scoreStates].map((state): LegendItem => ({
      key: `score-${state}`,
      label: scoreStateStyle[state].label,
      swatch: (x, y) => tag("rect", { x: x - 1.5, y: y - 5, width: 3, height: 10, fill: scoreStateStyle[state].fill })
    }))
  ]
}

/** A pool's legend: a finish, a race's band, the other clicks when there are any, the states; nothing of scores. */
const raceItems = (tl: Timeline): ReadonlyArray<LegendItem> => [
  { key: "finish", label: "a finish (its time in the tooltip)", swatch: (x, y) => markShape("auto", x, y, "#ffffff", "#0f172a") },
  {
    key: "race",
    label: "a race, from its start",
    swatch: (x, y) => tag("rect", { x: x - 6, y: y - 5, width: 12, height: 10, fill: "#f1f5f9" }) + tag("line", { x1: x - 6, x2: x - 6, y1: y - 5, y2: y + 5, stroke: "#94a3b8", "stroke-dasharray": "3 2" })
  },
  ...(tl.highlights.some((h) => h.kind === "press") ? [pressItem] : []),
  ...(tl.highlights.some((h) => h.kind === "auto" && h.finish === null) ? [autoItem] : []),
  ...statesShown(tl).map(stateItem)
]

/**
 * What each shape and colour means, for what the picture shows: on a score chart, both highlight
 * kinds (and a finish's label when there is one), the states present (accepted and in flight
 * always), the tie-break hatch, the delivery strip; on a pool's, its finishes and races.
 */
export const legendSvg = (tl: Timeline, width: number, pad: number, top: number): { readonly svg: string; readonly height: number } => {
  const items = tl.races === null ? scoreItems(tl) : raceItems(tl)
  const caption = tl.races === null
    ? [`Lines: ${scaleWords[tl.shape]}`, "marks: highlights"]
    : ["Rows: places, 1st at the top", "marks: finishes at the touch", "L4: lane 4"]
  const lines = wrap(caption, width - 2 * pad, size)
  const placed: Array<string> = lines.map((line, i) =>
    tag("text", { x: pad, y: top + 13 + i * rowHeight, "font-size": size, fill: "#64748b", "data-legend-caption": "" }, escapeXml(line))
  )
  let x = pad
  let row = lines.length
  for (const item of items) {
    const itemWidth = 16 + textWidth(item.label, size) + 12
    if (x > pad && x + itemWidth > width - pad) {
      x = pad
      row++
    }
    const y = top + row * rowHeight + 9
    placed.push(tag("g", { "data-legend-item": item.key }, item.swatch(x + 6, y - 4) +
      tag("text", { x: x + 16, y, "font-size": size, fill: "#0f172a" }, escapeXml(item.label))))
    x += itemWidth
  }
  return { svg: tag("g", { "data-legend": "" }, placed.join("")), height: (row + 1) * rowHeight + 4 }
}
