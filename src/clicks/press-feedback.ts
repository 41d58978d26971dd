import type { ButtonEvent } from "../domain/button.ts"
import type { PressResult } from "./press-handler.ts"

/** What the operator is told about a press: one line, in words, and a small JSON for MQTT feedback. */
export const pressFeedback = (place: string, press: ButtonEvent, result: PressResult) => {
  const what = `${press.gesture} on ${press.source}/${press.button}`
  switch (result._tag) {
    case "Queued":
      return { level: "info" as const, text: `${place}: ${what} → highlight #${result.itemId} on its way`, status: "queued" }
    case "UndoQueued":
      return { level: "info" as const, text: `${place}: ${what} → undo of highlight #${result.clickItemId} on its way`, status: "undo-queued" }
    case "NoEvent":
      return { level: "warn" as const, text: `${place}: ${what} ignored — no event is running on this place, so there is nothing to clip`, status: "no-event" }
    case "NothingToUndo":
      return { level: "warn" as const, text: `${place}: ${what} → nothing to undo: ${result.reason}`, status: "nothing-to-undo" }
    case "NotStored":
      return { level: "error" as const, text: `${place}: ${what} could NOT be stored: ${result.error}`, status: "not-stored" }
  }
}
