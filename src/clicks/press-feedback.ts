import type { ButtonEvent } from "../domain/button.ts"
import type { LateClick, PressResult } from "./press-handler.ts"

/** A time of day as logs and feedback show it: UTC, to the second. */
const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)}Z`

/** Why a late press got a wide window, in words an operator can act on. */
export const lateText = (late: LateClick) =>
  `it waited at the broker while the bridge was not listening, so it was pressed ` +
  (late.after === null ? `at an unknown time before ${clock(late.arrivedAt)}` : `between ${clock(late.after)} and ${clock(late.arrivedAt)}`) +
  `, not when it arrived; its window is widened to ${clock(late.startTime)}–${clock(late.endTime)}` +
  (late.after === null || late.startTime > late.after ? " (older footage is no longer kept)" : "")

/** What the operator is told about a press: one line, in words, and a small JSON for MQTT feedback. */
export const pressFeedback = (place: string, press: ButtonEvent, result: PressResult) => {
  const what = `${press.gesture} on ${press.source}/${press.button}`
  switch (result._tag) {
    case "Queued":
      return result.late === undefined
        ? { level: "info" as const, text: `${place}: ${what} → highlight #${result.itemId} on its way`, status: "queued" }
        : { level: "warn" as const, text: `${place}: ${what} → highlight #${result.itemId} on its way, late: ${lateText(result.late)}`, status: "queued-late" }
    case "UndoQueued":
      return { level: "info" as const, text: `${place}: ${what} → undo of highlight #${result.clickItemId} on its way`, status: "undo-queued" }
    case "NoEvent":
      return { level: "warn" as const, text: `${place}: ${what} ignored — no event is running on this place, so there is nothing to clip`, status: "no-event" }
    case "NothingToUndo":
      return { level: "warn" as const, text: `${place}: ${what} → nothing to undo: ${result.reason}`, status: "nothing-to-undo" }
    case "Repeat":
      return {
        level: "info" as const,
        text: `${place}: ${what} is a repeat of a press already handled (device press ${result.identity}, re-published): nothing made again`,
        status: "repeat"
      }
    case "NotStored":
      return { level: "error" as const, text: `${place}: ${what} could NOT be stored: ${result.error.message}`, status: "not-stored" }
  }
}
