/**
 * What the bridge knows of a click after the service accepted it. A 200 means only "accepted": the
 * clips are cut later and seen only through the Moment, so each accepted click is followed until
 * its outcome is known. Shared by the outbox (which stores follow-ups beside their clicks), the
 * clip follower, the status page, the timeline, metrics and the CLI.
 */

/**
 * - `clip-ready`: a clip of the moment has a video URL.
 * - `no-clip`: none had one by the deadline (camera off, no footage of the window).
 * - `deleted`: the moment is gone (an undo, or someone at the service).
 * - `unchecked`: the moment could not be read for a long time after its deadline (busy budget,
 *   service unreachable): the bridge stopped following it and does not know.
 */
export const clipOutcomes = ["clip-ready", "no-clip", "deleted", "unchecked"] as const
export type ClipOutcome = (typeof clipOutcomes)[number]

/** What the last read of the moment showed, as received (`momentStatus` is not in the contract: shown, never relied on). */
export interface ClipDetail {
  /** Clips with a video URL: one per camera angle. */
  readonly angles?: number
  readonly videoURL?: string
  readonly thumbnailURL?: string
  readonly momentStatus?: string
  /** When the read that found the clip was answered (ms). */
  readonly readyAt?: number
  /** Why the outcome is not a clip, in words. */
  readonly reason?: string
}

export interface FollowUp {
  /** The outbox item of the click: one follow-up per click. */
  readonly clickId: number
  readonly place: string
  readonly momentKey: string
  /** The press (or auto-highlight) time: the click item's capture time. */
  readonly pressedAt: number
  /** When the service accepted the click. */
  readonly acceptedAt: number
  /** Reads of the moment so far. */
  readonly reads: number
  readonly nextReadAt: number
  /** Null while it is being followed. */
  readonly outcome: ClipOutcome | null
  readonly detail: ClipDetail | null
  readonly settledAt: number | null
  /** The latest read's error, when it failed (never the token). */
  readonly lastError: string | null
}

/** What became of a followed click, for the status page, metrics and the feedback topic. */
export interface ClipSettled {
  readonly place: string
  readonly clickItemId: number
  readonly momentKey: string
  readonly outcome: ClipOutcome
  readonly detail: ClipDetail
  readonly pressedAt: number
  readonly acceptedAt: number
}

/** How clicks are followed; the daemon's `clips:` config section. */
export interface FollowUpSettings {
  /** The first read of a moment, this long after its click was accepted (ms): near the usual clip time. */
  readonly firstReadAfterMs: number
  /** No clip by this long after acceptance: the outcome is `no-clip` (ms). */
  readonly noClipAfterMs: number
  /** A follow-up that could not be read this long after its deadline is given up as `unchecked` (ms). */
  readonly giveUpAfterMs: number
  /**
   * Two reads are never closer than this (ms): two of the token's slots at 1 request/s, so reads
   * take at most every other idle slot and a press finds the next one free more often than not.
   */
  readonly readGapMs: number
  /**
   * Reads wait while the token's last minute used at least this share of its limit: a venue whose
   * scores and presses keep the token busy follows its clips in the quieter moments (a break, the
   * end of the match) instead of pushing every press behind a read.
   */
  readonly tightShare: number
}

export const defaultFollowUpSettings: FollowUpSettings = {
  firstReadAfterMs: 10_000,
  noClipAfterMs: 180_000,
  giveUpAfterMs: 30 * 60_000,
  readGapMs: 2_000,
  tightShare: 0.6
}
