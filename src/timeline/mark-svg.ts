import { clockLabel } from "./time-ticks.ts"
import type { HighlightMark, Timeline } from "./timeline-model.ts"
import { highlightStyle } from "./timeline-palette.ts"
import { escapeXml, tag } from "./svg-text.ts"
import { markShape } from "./mark-shape.ts"
import { finishWords } from "./finish-words.ts"

// A merged auto-highlight is drawn small: the press that replaced it sits beside it.
const mergedScale = 0.55

/**
 * The tooltip: what made the mark, its team (a finish: its swimmer's lane, place and time) and
 * time, then what became of it. A settled clip's words (`clipOutcomeText`) stand for the state's;
 * a part already said is not said again.
 */
export const markTitle = (tl: Timeline, h: HighlightMark, timeZone: string | undefined): string => {
  const clipWords = h.state === "clip-ready" || h.state === "no-clip"
  const what = [
    clipWords && h.clip !== null ? h.clip.text : highlightStyle[h.state].label + (h.undo !== null && h.undo !== "delivered" ? ` (undo ${h.undo})` : ""),
    ...(h.mergedInto === null ? [] : [`into #${h.mergedInto}`])
  ]
  for (const more of [h.clip?.text, h.detail]) {
    if (more !== undefined && more !== null && !what.some((s) => s.includes(more))) what.push(more)
  }
  return [
    h.kind === "auto" ? `auto: ${[h.rule, ...h.rules.filter((r) => r !== h.rule)].filter((r) => r !== null).join(", ")}` : "press",
    h.finish !== null ? finishWords(h.finish) : h.team === "none" ? "no team" : tl.teams[h.team],
    clockLabel(h.at, true, timeZone),
    ...what
  ].join(" · ")
}

/**
 * Where a ready clip is, unless an undo is taking it back: only an http(s) URL is linked, so an
 * address from the network can run nothing.
 */
export const clipLink = (h: HighlightMark): string | undefined => {
  if (h.state === "undone" || h.clip?.outcome !== "clip-ready" || h.clip.videoURL === null || !URL.canParse(h.clip.videoURL)) return undefined
  const url = new URL(h.clip.videoURL)
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined
}

/**
 * One highlight at (cx, cy): its shape in its state's colour, a dotted line down to `bottom` (none
 * when null), a strike when undone, its tooltip; a mark whose clip is ready is a link that opens the clip.
 */
export const markSvg = (tl: Timeline, h: HighlightMark, cx: number, cy: number, bottom: number | null, timeZone: string | undefined): string => {
  const style = highlightStyle[h.state]
  const merged = h.state === "merged"
  const guide = bottom === null
    ? ""
    : tag("line", { x1: cx, x2: cx, y1: cy + (merged ? 4 : 7), y2: bottom, stroke: style.line ?? style.fill, "stroke-opacity": 0.45, "stroke-dasharray": "2 3" })
  const strike = h.state === "undone" ? tag("line", { x1: cx - 5, y1: cy + 5, x2: cx + 5, y2: cy - 5, stroke: "#1e293b", "stroke-width": 1.8 }) : ""
  const href = clipLink(h)
  const mark = tag("g", {
    "data-mark": "",
    "data-kind": h.kind,
    "data-rule": h.rule ?? undefined,
    "data-rules": h.rules.length > 0 ? h.rules.join(" ") : undefined,
    "data-state": h.state,
    "data-team": h.team,
    "data-at": h.at,
    "data-item": h.itemId,
    "data-undo": h.undo ?? undefined,
    "data-merged-into": h.mergedInto ?? undefined,
    "data-clip": h.clip?.outcome ?? (h.clip === null ? undefined : "pending"),
    "data-angles": h.clip?.angles ?? undefined,
    "data-finish-lane": h.finish?.lane,
    "data-finish-place": h.finish?.place,
    "data-finish-time": h.finish?.time,
    "data-x": cx,
    "data-y": cy
  }, tag("title", {}, escapeXml(markTitle(tl, h, timeZone))) + guide + markShape(h.kind, cx, cy, style.fill, style.stroke, merged ? mergedScale : 1, style.ring) + strike)
  return href === undefined ? mark : tag("a", { href, target: "_blank", rel: "noopener noreferrer", "data-clip-link": h.itemId }, mark)
}
