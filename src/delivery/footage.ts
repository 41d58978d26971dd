import type { ClickBody } from "./item-payloads.ts"

/** While an event is open the service keeps this much footage for clipping, counted back from a click's arrival. */
export const footageKeptMs = 60_000

/**
 * The earliest footage a click needs: its window's start, or the press itself when the sport's
 * default window is used. A press that waited at the broker while the bridge was away (metadata
 * `pressedAfter`, see src/clicks/late-press.ts) is judged at its arrival, the latest moment it can
 * have been made: its window was widened back on purpose, as far as footage could still exist,
 * so losing that far end is expected, not a miss.
 */
export const footageNeededFrom = (body: ClickBody): number =>
  body.metadata.pressedAfter !== undefined ? body.timeStamp : body.startTime ?? body.timeStamp

/** Whether the footage a click needs is still kept at `now` while its event is open. */
export const footageLasts = (body: ClickBody, now: number): boolean => now - footageNeededFrom(body) <= footageKeptMs
