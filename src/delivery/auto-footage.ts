import type { OutboxItem } from "./outbox.ts"
import { footageLasts, footageNeededFrom } from "./footage.ts"
import { Outcome } from "../domain/outcome.ts"
import { isAutoClick } from "../domain/click-origin.ts"

/**
 * An auto-highlight that waited (an outage, a back-off) until the footage it needs is gone:
 * it is settled as skipped without a request. A press is still sent late — someone asked for it,
 * and an event that has ended meanwhile can still be clipped; a rule's guess is not worth that.
 */
export const staleAutoHighlight = (item: OutboxItem, now: number): Outcome | undefined => {
  if (item.kind !== "click" || !isAutoClick(item.payload)) return undefined
  const body = item.payload
  if (footageLasts(body, now)) return undefined
  const rule = body.metadata.rule ?? "auto"
  const ageS = Math.round((now - footageNeededFrom(body)) / 1000)
  return Outcome.missed(
    `skipped, not sent: the ${rule} auto-highlight's footage starts ${ageS} s ago, and while an event is open only the last minute is kept`,
    { skipped: true }
  )
}
