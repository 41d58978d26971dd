import type { HighlightMark } from "./timeline-model.ts"
import { tag } from "./svg-text.ts"

/** Press: a circle; auto-highlight: a diamond. The fill (and the outline of a hollow one) says what became of it. */
export const markShape = (kind: HighlightMark["kind"], cx: number, cy: number, fill: string, stroke: string, scale = 1, width = 1.3): string => {
  const r = 6.5 * scale
  const d = 7.5 * scale
  return kind === "press"
    ? tag("circle", { cx, cy, r, fill, stroke, "stroke-width": width })
    : tag("path", { d: `M${cx.toFixed(1)} ${(cy - d).toFixed(1)}l${d} ${d}l${-d} ${d}l${-d} ${-d}z`, fill, stroke, "stroke-width": width })
}
