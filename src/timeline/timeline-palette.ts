import type { HighlightState, ScoreState } from "./timeline-model.ts"

/** Team lines: blue and orange stay apart for the common colour-vision deficiencies. */
export const teamColour = { home: "#2563eb", away: "#c2410c" } as const

/**
 * Highlight marker per state, and the word the legend and tooltips use. `line`: the dotted guide
 * down to the score, where the fill is too pale for one; `ring`: a thicker outline, for a hollow mark.
 */
export const highlightStyle: Readonly<Record<HighlightState, {
  readonly fill: string
  readonly stroke: string
  readonly label: string
  readonly line?: string
  readonly ring?: number
}>> = {
  "clip-ready": { fill: "#15803d", stroke: "#ffffff", label: "clip ready" },
  "delivered": { fill: "#86efac", stroke: "#15803d", label: "accepted, clip pending", line: "#16a34a" },
  // Hollow: a highlight with nothing in it.
  "no-clip": { fill: "#ffffff", stroke: "#b45309", label: "no clip", line: "#b45309", ring: 2.4 },
  "in-flight": { fill: "#7c3aed", stroke: "#ffffff", label: "in flight" },
  "undone": { fill: "#94a3b8", stroke: "#334155", label: "undone" },
  "missed": { fill: "#dc2626", stroke: "#ffffff", label: "missed (late)" },
  "skipped": { fill: "#db2777", stroke: "#ffffff", label: "skipped (footage gone)" },
  "merged": { fill: "#e2e8f0", stroke: "#475569", label: "merged into a press", line: "#94a3b8" },
  "not-made": { fill: "#f59e0b", stroke: "#ffffff", label: "no highlight (no event)" },
  "failed": { fill: "#111827", stroke: "#ffffff", label: "failed" }
}

/** The delivery strip under the score: one tick per entry. */
export const scoreStateStyle: Readonly<Record<ScoreState, { readonly fill: string; readonly label: string }>> = {
  delivered: { fill: "#86efac", label: "score sent" },
  pending: { fill: "#7c3aed", label: "score waiting" },
  warning: { fill: "#f59e0b", label: "score dropped (no event)" },
  dead: { fill: "#111827", label: "score refused" },
  missed: { fill: "#dc2626", label: "score missed" }
}

export const tieBreakColour = "#f59e0b"
