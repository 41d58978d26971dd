import { clipOutcomeText } from "../clip-follow-up/outcome-text.ts"
import type { FollowUp } from "../domain/follow-up.ts"
import { venueTimeWords } from "../timeline/time-ticks.ts"
import type { ClipProblem, LastClick } from "./status-snapshot.ts"

/** Follow-ups read first per place and snapshot: enough to reach the last clip on a court whose camera works. */
export const clipsFirstRead = 16
/** Read when the first ones are all without a clip: the run is counted this far back at most. */
export const clipsLongRead = 200

/**
 * The run of clicks without a clip, newest first: `no-clip` ones count, back to the newest
 * `clip-ready`; `deleted`, `unchecked` and waiting ones neither count nor end it. `ended`: a clip
 * was found, so the rows were enough to see the whole run.
 */
export const clipRun = (followUps: ReadonlyArray<FollowUp>) => {
  let clicks = 0
  let since: number | null = null
  for (const f of followUps) {
    if (f.outcome === "clip-ready") return { clicks, since, ended: true }
    if (f.outcome === "no-clip") {
      clicks++
      since = since === null ? f.pressedAt : Math.min(since, f.pressedAt)
    }
  }
  return { clicks, since, ended: false }
}

/** A followed click's clip as the card shows it: its outcome in words, and its links once ready. */
export const clickOf = (f: FollowUp): LastClick => {
  const ready = f.outcome === "clip-ready"
  return {
    itemId: f.clickId,
    pressedAt: f.pressedAt,
    outcome: f.outcome,
    text: clipOutcomeText(f),
    videoURL: ready ? f.detail?.videoURL ?? null : null,
    thumbnailURL: ready ? f.detail?.thumbnailURL ?? null : null
  }
}

export const lastClickOf = (followUps: ReadonlyArray<FollowUp>): LastClick | null => {
  const f = followUps[0]
  return f === undefined ? null : clickOf(f)
}

/**
 * The problem line once `problemAfterClicks` clicks in a row made no clip; null otherwise. Its time
 * is the venue's clock, as on the card beside it (with the date once the run is over a day old at `now`).
 */
export const clipProblemOf = (followUps: ReadonlyArray<FollowUp>, problemAfterClicks: number, now: number): ClipProblem | null => {
  const { clicks, since } = clipRun(followUps)
  if (clicks < problemAfterClicks || since === null) return null
  const text = `${clicks} ${clicks === 1 ? "click" : "clicks"} without a clip since ${venueTimeWords(since, { now })}: is the camera recording?`
  return { clicks, since, text }
}
