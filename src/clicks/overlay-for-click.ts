import type { TeamOverlay } from "../config/clicks.ts"
import type { Overlay } from "../service/schemas.ts"
import { fillLiveValues, type LiveFields } from "./live-values.ts"

/**
 * The Overlay to send with a click: the `{{live}}` fields of the configured
 * values filled in, and `templateFile` dropped — it is the local copy of the
 * template, for checking only; the service fetches `templateSource` itself.
 */
export const overlayForClick = (teamOverlay: TeamOverlay, live: LiveFields): Overlay => {
  const { templateFile: _localOnly, values, ...overlay } = teamOverlay
  return values === undefined ? overlay : { ...overlay, values: fillLiveValues(values, live) }
}
