import { createHash } from "node:crypto"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { ClickBody } from "../delivery/item-payloads.ts"
import { autoSource } from "../domain/click-origin.ts"
import { type Finish, finishFacts, type FinishFacts } from "../domain/race.ts"
import type { Overlay } from "../service/schemas.ts"
import type { AutoHighlight } from "./score-moments.ts"

// Metadata stays far below the service's 500 bytes: a swimmer's name, when a protocol gives one, is cut.
const finishMetadata = (finish: Finish): FinishFacts => {
  const facts = finishFacts(finish)
  return facts.swimmer === undefined ? facts : { ...facts, swimmer: facts.swimmer.slice(0, 64) }
}

/**
 * The service's click body for an auto-highlight: stamped at the score change, with its rule's
 * window, the entry and the team's overlay. `rules` lists every rule that chose the same change
 * (only when several did); metadata stays far below the service's 500 bytes. A finish is stamped
 * at the touch and carries the swimmer's finish in its metadata, and no score: a race has none.
 */
export const autoClickBody = (options: {
  readonly highlight: AutoHighlight
  readonly clickId: string
  readonly score: ScoreEntry | undefined
  readonly overlay: Overlay | undefined
}): ClickBody => {
  const { highlight } = options
  return {
    timeStamp: highlight.at,
    startTime: highlight.at - Math.round(highlight.window.beforeSeconds * 1000),
    endTime: highlight.at + Math.round(highlight.window.afterSeconds * 1000),
    ...(options.score === undefined || highlight.finish !== undefined ? {} : { score: { ...options.score } }),
    ...(options.overlay === undefined ? {} : { overlays: [options.overlay] }),
    metadata: {
      clickId: options.clickId,
      team: highlight.team,
      source: autoSource,
      rule: highlight.rule,
      ...(highlight.rules.length > 1 ? { rules: highlight.rules } : {}),
      ...(highlight.finish === undefined ? {} : { finish: finishMetadata(highlight.finish) })
    }
  }
}

/** What a highlight was judged on: the score without its stamp (the highlight has it), or the finish. */
const judgedOn = (highlight: AutoHighlight, score: ScoreEntry | undefined): object => {
  if (highlight.finish !== undefined) return finishFacts(highlight.finish)
  const { timeStamp: _stamp, ...values } = score ?? { timeStamp: 0 }
  return values
}

/**
 * Derived from the place, rule, stamp and the score it was judged on: the same change judged
 * twice (a retried store) is the same click, while two changes read in one chunk (one stamp, after
 * a stall) stay two clicks. A finish is judged on no score: its lane, place, time, event and heat
 * (with the touch) make it, so the same finish is the same click whatever score the place shows.
 */
export const autoClickIdOf = (place: string, highlight: AutoHighlight, score: ScoreEntry | undefined): string =>
  createHash("sha256")
    .update(`${place}\u0000${autoSource}\u0000${highlight.rule}\u0000${highlight.at}\u0000${JSON.stringify(judgedOn(highlight, score))}`)
    .digest("base64url").slice(0, 20)
