import { createHash } from "node:crypto"
import type { ButtonEvent } from "../domain/button.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { ClickBody, Team } from "../delivery/item-payloads.ts"
import type { Overlay } from "../service/schemas.ts"
import type { ClickWindow } from "./click-window.ts"
import type { LatePress } from "../domain/press-result.ts"
import { lateWindow } from "./late-press.ts"

export type { Team } from "../delivery/item-payloads.ts"

export type { ClickWindow } from "./click-window.ts"

/**
 * A click id derived from the press itself, so the same press seen twice
 * (an MQTT redelivery after a restart) is the same click: the outbox keeps one,
 * and reconciliation finds it in the event's moments by this id.
 */
export const clickIdOf = (place: string, press: ButtonEvent): string =>
  createHash("sha256")
    .update(`${place}\u0000${press.source}\u0000${press.button}\u0000${press.gesture}\u0000${press.pressedAt}`)
    .digest("base64url")
    .slice(0, 20)

/**
 * The service's click body for a highlight press. Metadata stays far below the 500-byte limit.
 * A late press keeps its arrival as `timeStamp` (the only time known of it), gets a window widened
 * back over the time it may have been made in, and says so in `metadata.pressedAfter` (ms, or null
 * when unknown).
 */
export const clickBody = (options: {
  readonly press: ButtonEvent
  readonly clickId: string
  readonly team: Team
  readonly window: ClickWindow | undefined
  readonly score: ScoreEntry | undefined
  readonly overlay: Overlay | undefined
  readonly late?: LatePress | undefined
}): ClickBody => {
  const { press, window, late } = options
  return {
    timeStamp: press.pressedAt,
    ...(late !== undefined ? lateWindow(late, window) : window === undefined ? {} : {
      startTime: press.pressedAt - Math.round(window.beforeSeconds * 1000),
      endTime: press.pressedAt + Math.round(window.afterSeconds * 1000)
    }),
    ...(options.score === undefined ? {} : { score: { ...options.score } }),
    ...(options.overlay === undefined ? {} : { overlays: [options.overlay] }),
    metadata: {
      clickId: options.clickId,
      team: options.team,
      source: press.source.slice(0, 64),
      button: press.button.slice(0, 32),
      gesture: press.gesture,
      ...(late === undefined ? {} : { pressedAfter: late.after })
    }
  }
}
