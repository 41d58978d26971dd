import { Option } from "effect"
import { clipOutcomeText } from "../clip-follow-up/outcome-text.ts"
import type { FollowUp } from "../domain/follow-up.ts"
import type { OutboxItem } from "../delivery/outbox.ts"
import { isAutoClick } from "../highlights/auto-click.ts"
import type { ClickBody } from "../service/schemas.ts"
import { asClickPayload, asClickResult, undoneClickId } from "./outbox-payloads.ts"
import type { ClipMark, HighlightMark, HighlightState, Team } from "./timeline-model.ts"

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

/**
 * A made highlight's clip, once its follow-up settled: ready, none, or the moment deleted at the
 * service. Still followed, or `unchecked`, it stays "delivered" (its detail says which).
 */
const withClip = (state: HighlightState, followUp: FollowUp | undefined): HighlightState => {
  if (state !== "delivered") return state
  switch (followUp?.outcome) {
    case "clip-ready":
      return "clip-ready"
    case "no-clip":
      return "no-clip"
    case "deleted":
      return "undone"
    default:
      return state
  }
}

const clipMark = (followUp: FollowUp): ClipMark => ({
  outcome: followUp.outcome,
  text: clipOutcomeText(followUp),
  videoURL: followUp.detail?.videoURL ?? null,
  thumbnailURL: followUp.detail?.thumbnailURL ?? null,
  angles: followUp.detail?.angles ?? null
})

/** Why a mark is as it is, beyond its state's word. */
const detailOf = (state: HighlightState, click: OutboxItem, followUp: FollowUp | undefined, clip: ClipMark | null, undone: boolean): string | null => {
  if (state === "no-clip") return followUp?.detail?.reason ?? clip?.text ?? null
  // Deleted at the service, or followed until the bridge gave up: the follow-up says so.
  if (state === "undone") return undone ? null : clip?.text ?? null
  if (clip?.outcome === "unchecked") return clip.text
  return (state === "delivered" || state === "clip-ready") && click.state === "delivered" ? null : click.lastError
}

const teamOf = (value: unknown): Team => (value === "home" || value === "away" ? value : "none")

/** Every click of the event as a mark: press or auto, its team and rules, what became of it and of its clip. */
export const highlightMarks = (
  clicks: ReadonlyArray<OutboxItem>,
  undos: ReadonlyArray<OutboxItem>,
  followUps: ReadonlyArray<FollowUp>
): Array<HighlightMark> => {
  const followUpOf = new Map(followUps.map((f) => [f.clickId, f]))
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
      const followUp = followUpOf.get(click.id)
      const byUndo = highlightState(click, undo)
      const state = withClip(byUndo, followUp)
      const clip = followUp === undefined ? null : clipMark(followUp)
      return {
        itemId: click.id,
        at: body.timeStamp,
        kind: auto ? "auto" : "press",
        team: teamOf(metadata.team),
        rule: auto && typeof metadata.rule === "string" ? metadata.rule : null,
        rules,
        state,
        undo: byUndo === "undone" ? undo!.state : null,
        mergedInto: state === "merged" ? asClickResult(click.result).mergedInto ?? null : null,
        detail: detailOf(state, click, followUp, clip, byUndo === "undone"),
        clip
      }
    }))
  )
}
