import { pressFeedback } from "../clicks/press-feedback.ts"
import type { BridgeEvent } from "../bus/bridge-events.ts"
import { clockLabel } from "../timeline/time-ticks.ts"

// The venue's clock, as on the status page it prints the address of (milliseconds: points come fast).
const time = () => {
  const now = Date.now()
  return `${clockLabel(now, true)}.${String(now % 1000).padStart(3, "0")}`
}

/** One human line per bridge event, for the demo's output. */
export const describeEvent = (e: BridgeEvent): string | undefined => {
  switch (e._tag) {
    case "Link":
      return `${time()} ${e.place}  link      ${e.state._tag} ${e.state.target}`
    case "Reading": {
      const r = e.reading
      const points = r.gamePoints ? `points ${r.gamePoints[0]}-${r.gamePoints[1]}` : `score ${r.home ?? "?"}-${r.away ?? "?"}`
      const sets = r.sets ? ` games ${r.sets.map(([h, a]) => `${h}-${a}`).join(" ")}` : ""
      return `${time()} ${e.place}  reading   ${points}${sets}${r.clock ? `  (clock ${r.clock})` : ""}`
    }
    case "Entry":
      return `${time()} ${e.place}  entry #${e.itemId} stored   ${JSON.stringify(e.entry)}`
    case "Activity":
      // Byte counts for the status page; the readings they make are shown instead.
      return undefined
    case "ButtonLink":
      return `${time()} ${e.source}  buttons   ${e.state._tag} ${e.state.target}`
    case "Press":
      return `${time()} ${pressFeedback(e.place, e.press, e.result).text}`
    case "Settled": {
      const o = e.outcome
      const what = o._tag === "Delivered"
        ? `delivered ${JSON.stringify(o.result)}`
        : o._tag === "Warning" ? `warning: ${o.warning}`
        : o._tag === "Dead" ? `rejected: ${o.error}`
        : o._tag === "Missed" ? `missed: ${o.reason}`
        : `retrying (${o.kind}): ${o.error}`
      return `${time()} ${e.place}  answer #${e.itemId} ${what}`
    }
  }
}
