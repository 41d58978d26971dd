import { Option } from "effect"
import type { OutboxItem } from "../delivery/outbox.ts"
import { isAutoClick } from "../highlights/auto-click.ts"
import type { ClickBody } from "../service/schemas.ts"
import { asClickPayload, asClickResult, undoneClickId } from "./outbox-payloads.ts"
import type { HighlightMark, HighlightState, Team } from "./timeline-model.ts"

const madeMoment = (result: unknown) => typeof result === "object" && result !== null && "momentKey" in result

/** What became of a click, from its own outbox state and the undo that names it, if any. */
const highlightState = (click: OutboxItem, undo: OutboxItem | undefined): HighlightState => {
  // An undo the service answered "nothing to undo" took nothing back.
  if (undo !== undefined && undo.state !== "warning" && undo.state !== "dead") return "undone"
  const result = asClickResult(click.result)
  switch (click.state) {
    case "pending":
      return "in-flight"
    case "delivered":
      return "delivered"
    case "warning":
      // Made, though the service refused part of it (e.g. an overlay).
      if (madeMoment(click.result)) return "delivered"
      return result.mergedInto !== undefined ? "merged" : "not-made"
    case "missed":
      return result.skipped === true ? "skipped" : "missed"
    case "dead":
      return "failed"
  }
}

const teamOf = (value: unknown): Team => (value === "home" || value === "away" ? value : "none")

/** Every click of the event as a mark: press or auto, its team and rules, and what became of it. */
export const highlightMarks = (
  clicks: ReadonlyArray<OutboxItem>,
  undos: ReadonlyArray<OutboxItem>
): Array<HighlightMark> => {
  const undoOf = new Map<number, OutboxItem>()
  for (const undo of undos) {
    const clickId = undoneClickId(undo.payload)
    const before = clickId === undefined ? undefined : undoOf.get(clickId)
    // A second undo of the same click (a retry) only matters if the first one failed.
    if (clickId !== undefined && (before === undefined || before.state === "warning" || before.state === "dead")) {
      undoOf.set(clickId, undo)
    }
  }
  return clicks.flatMap((click) =>
    Option.toArray(Option.map(asClickPayload(click.payload), (body): HighlightMark => {
      const metadata = body.metadata ?? {}
      const auto = isAutoClick(body as ClickBody)
      const rules = auto && Array.isArray(metadata.rules) ? metadata.rules.filter((r): r is string => typeof r === "string") : []
      const undo = undoOf.get(click.id)
      const state = highlightState(click, undo)
      return {
        itemId: click.id,
        at: body.timeStamp,
        kind: auto ? "auto" : "press",
        team: teamOf(metadata.team),
        rule: auto && typeof metadata.rule === "string" ? metadata.rule : null,
        rules,
        state,
        undo: state === "undone" ? undo!.state : null,
        mergedInto: state === "merged" ? asClickResult(click.result).mergedInto ?? null : null,
        detail: state === "undone" || state === "delivered" && click.state === "delivered" ? null : click.lastError
      }
    }))
  )
}
