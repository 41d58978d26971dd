import type { HighlightMark } from "./timeline-model.ts"
import { escapeXml, tag, textWidth } from "./svg-text.ts"
import { finishLabel } from "./finish-words.ts"

const size = 10
const gap = 4

/** Where the labels go: the mark's x, and the strip's ends they must stay within. */
export interface LabelRow {
  readonly x: (at: number) => number
  readonly left: number
  readonly right: number
  readonly baseline: number
}

/**
 * Each finish mark's lane and place ("L4 · 1st") above it. A race's touches come seconds apart,
 * closer than a label's width on a match-long axis: the best places are labelled first, and a
 * label that would overlap one already placed is left out (its mark's tooltip still says it).
 */
export const finishLabels = (highlights: ReadonlyArray<HighlightMark>, row: LabelRow): string => {
  const finishes = highlights
    .filter((h): h is HighlightMark & { readonly finish: NonNullable<HighlightMark["finish"]> } => h.finish !== null)
    .sort((a, b) => a.finish.place - b.finish.place || a.at - b.at)
  const placed: Array<readonly [number, number]> = []
  const labels: Array<string> = []
  for (const h of finishes) {
    const label = finishLabel(h.finish)
    const half = textWidth(label, size, true) / 2
    const x = Math.min(Math.max(row.x(h.at), row.left + half), row.right - half)
    if (placed.some(([from, to]) => x + half + gap > from && x - half - gap < to)) continue
    placed.push([x - half, x + half])
    labels.push(tag("text", {
      x,
      y: row.baseline,
      "font-size": size,
      "font-weight": 700,
      "text-anchor": "middle",
      fill: "#0f172a",
      stroke: "#ffffff",
      "stroke-width": 3,
      "paint-order": "stroke",
      "data-finish-label": h.itemId
    }, escapeXml(label)))
  }
  return labels.join("")
}
