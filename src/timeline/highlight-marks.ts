import { Predicate } from "effect"
import { clipOutcomeText } from "../clip-follow-up/outcome-text.ts"
import type { FollowUp } from "../domain/follow-up.ts"
import type { KindItem } from "../delivery/outbox.ts"
import { isAutoClick } from "../domain/click-origin.ts"
import type { ClipMark, HighlightMark, HighlightState, Team } from "./timeline-model.ts"

type ClickItem = KindItem<"click">
type UndoItem = KindItem<"undo">

const madeMoment = (result: unknown) => Predicate.isObject(result) && "momentKey" in result

/**
 * What a click's settlement said beyond made or not: merged into a press (`mergedInto`, see
 * OutboxItems.appendMerging), or skipped without a request (`skipped`, see delivery/auto-footage.ts).
 */
const clickResult = (result: unknown): { readonly mergedInto?: number; readonly skipped?: boolean } =>
  Predicate.isObject(result)
    ? {
      ...("mergedInto" in result && typeof result.mergedInto === "number" ? { mergedInto: result.mergedInto } : {}),
      ...("skipped" in result && typeof result.skipped === "boolean" ? { skipped: result.skipped } : {})
    }
    : {}

/** What became of a click, from its own outbox state and the undo that names it, if any. */
const highlightState = (click: ClickItem, undo: UndoItem | undefined): HighlightState => {
  // An undo the service answered "nothing to undo" took nothing back.
  if (undo !== undefined && undo.state !== "warning" && undo.state !== "dead") return "undone"
  const result = clickResult(click.result)
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
const detailOf = (state: HighlightState, click: ClickItem, followUp: FollowUp | undefined, clip: ClipMark | null, undone: boolean): string | null => {
  if (state === "no-clip") return followUp?.detail?.reason ?? clip?.text ?? null
  // Deleted at the service, or followed until the bridge gave up: the follow-up says so.
  if (state === "undone") return undone ? null : clip?.text ?? null
  if (clip?.outcome === "unchecked") return clip.text
  return (state === "delivered" || state === "clip-ready") && click.state === "delivered" ? null : click.lastError
}

/** Every click of the event as a mark: press or auto, its team and rules (a finish's swimmer), what became of it and of its clip. */
export const highlightMarks = (
  clicks: ReadonlyArray<ClickItem>,
  undos: ReadonlyArray<UndoItem>,
  followUps: ReadonlyArray<FollowUp>
): Array<HighlightMark> => {
  const followUpOf = new Map(followUps.map((f) => [f.clickId, f]))
  const undoOf = new Map<number, UndoItem>()
  for (const undo of undos) {
    const clickId = undo.payload.clickItemId
    const before = undoOf.get(clickId)
    // A second undo of the same click (a retry) only matters if the first one failed.
    if (before === undefined || before.state === "warning" || before.state === "dead") undoOf.set(clickId, undo)
  }
  return clicks.map((click): HighlightMark => {
    const body = click.payload
    const metadata = body.metadata
    const auto = isAutoClick(body)
    const undo = undoOf.get(click.id)
    const followUp = followUpOf.get(click.id)
    const byUndo = highlightState(click, undo)
    const state = withClip(byUndo, followUp)
    const clip = followUp === undefined ? null : clipMark(followUp)
    return {
      itemId: click.id,
      at: body.timeStamp,
      kind: auto ? "auto" : "press",
      team: metadata.team,
      rule: auto ? metadata.rule ?? null : null,
      rules: auto ? metadata.rules ?? [] : [],
      state,
      undo: byUndo === "undone" ? undo!.state : null,
      mergedInto: state === "merged" ? clickResult(click.result).mergedInto ?? null : null,
      detail: detailOf(state, click, followUp, clip, byUndo === "undone"),
      clip,
      finish: auto && metadata.rule === "finish" ? metadata.finish ?? null : null
    }
  })
}
