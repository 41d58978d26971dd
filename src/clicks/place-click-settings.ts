import type { Place } from "../config/schema.ts"
import { liveFieldsFor } from "./live-values.ts"
import { overlayForClick } from "./overlay-for-click.ts"
import { checkOverlay } from "./overlay-rules.ts"
import type { PlaceClickSettings } from "./press-handler.ts"

/**
 * How a place's clicks are made — presses and auto-highlights alike: window, undo and merge limits,
 * team overlays, and the place's own overlay (`clicks.overlay`) for clicks about neither team.
 */
export const clickSettingsOf = (place: Place): PlaceClickSettings => {
  const clicks = place.clicks
  return {
    place: place.key,
    window: clicks?.beforeSeconds === undefined || clicks.afterSeconds === undefined
      ? undefined
      : { beforeSeconds: clicks.beforeSeconds, afterSeconds: clicks.afterSeconds },
    undoWithinMs: (clicks?.undoWithinSeconds ?? 120) * 1000,
    // Merging only matters where rules make auto-highlights a press may replace; elsewhere (finishes
    // are never replaced, press-merge.ts) a press need not look for them.
    mergeMs: (place.autoHighlights ?? []).some((rule) => rule.rule !== "finish") ? (clicks?.mergeSeconds ?? 5) * 1000 : 0,
    overlayFor: (team, score, event, board, finish) => {
      const configured = team === "none" ? clicks?.overlay : place.teams?.[team]?.overlay
      if (configured === undefined) return {}
      const overlay = overlayForClick(configured, liveFieldsFor(score, event, team, board, finish))
      const problems = checkOverlay(overlay)
      return problems.length === 0 ? { overlay } : { problems }
    }
  }
}
