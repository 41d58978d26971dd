import type { ClipOutcome } from "../domain/follow-up.ts"
import type { FinishFacts } from "../domain/race.ts"
import type { ItemState } from "../delivery/outbox.ts"
import type { SportKind } from "../domain/sport-kind.ts"

/**
 * One place's current event as a picture's worth of data: what the SVG draws and what tests
 * check. Plain data, no behaviour; times are ms since epoch (entry stamps, not send times).
 */

/** How the score is plotted: the shape of the sport's entries. */
export type ScoreShape = SportKind

export type Team = "home" | "away" | "none"

/** Delivery state of one score entry (or undo), as the outbox keeps it. */
export type ScoreState = ItemState

/** One score entry as plotted: `home`/`away` are what the y axis shows (see `ScoreSegment`). */
export interface ScorePoint {
  readonly itemId: number
  readonly at: number
  readonly home: number
  readonly away: number
  readonly state: ScoreState
  /** The full score in words, e.g. "6–6 (5–3)" or "41–38 Q2". */
  readonly text: string
}

/**
 * A run of points on one y scale: the whole event for generic sports, one set for tennis
 * (games in that set) and volleyball (points in that set). A set's last point is the score it
 * ended on, stamped when the board moved on to the next set.
 */
export interface ScoreSegment {
  /** The set number (tennis, volleyball) or 0 (generic: the period is in `periods`). */
  readonly set: number
  readonly points: ReadonlyArray<ScorePoint>
}

/** A period, quarter or set: where it starts and ends on the time axis. */
export interface PeriodSpan {
  readonly period: number
  /** e.g. "Q2", "Set 1", "P3". */
  readonly label: string
  readonly from: number
  readonly to: number
  /** The score it ended (or stands) on, e.g. "7–6" for a set; generic periods carry none. */
  readonly result: string | null
}

/** A tennis tie-break: from the first 6–6 entry of a set to the set's end. */
export interface TieBreakSpan {
  readonly set: number
  readonly from: number
  readonly to: number
  /** The tie-break points it ended (or stands) on, e.g. "7–5". */
  readonly points: string
}

/**
 * What happened to a highlight, most telling first (see `highlightState`). A click the service
 * accepted is "delivered" until its follow-up finds a clip ("clip-ready") or gives up on one
 * ("no-clip"); a moment deleted at the service is "undone" like one taken back by an undo.
 */
export type HighlightState =
  | "in-flight"
  | "delivered"
  | "clip-ready"
  | "no-clip"
  | "undone"
  | "missed"
  | "skipped"
  | "merged"
  | "not-made"
  | "failed"

export interface HighlightMark {
  readonly itemId: number
  /** The press's edge or the entry's stamp. */
  readonly at: number
  readonly kind: "press" | "auto"
  readonly team: Team
  /** Auto only: the first matching rule, and all of them when several matched. */
  readonly rule: string | null
  readonly rules: ReadonlyArray<string>
  readonly state: HighlightState
  /** The undo's own delivery state when `state` is "undone". */
  readonly undo: ScoreState | null
  /** Merged: the press item that replaced it. */
  readonly mergedInto: number | null
  /** Why it was missed, skipped, not made, failed or has no clip; retry error while in flight. */
  readonly detail: string | null
  /** What its follow-up knows of its clip; null when the click is not followed. */
  readonly clip: ClipMark | null
  /** A `finish` click's swimmer: lane, place and time (from its metadata); null for any other click. */
  readonly finish: FinishFacts | null
}

/** A followed click's clip as the timeline shows it. */
export interface ClipMark {
  /** Null while the clip is still awaited. */
  readonly outcome: ClipOutcome | null
  /** The outcome in words (`clipOutcomeText`), as the status card and the CLI say it. */
  readonly text: string
  /** As the service gave them: the SVG links only http(s) URLs. */
  readonly videoURL: string | null
  readonly thumbnailURL: string | null
  readonly angles: number | null
}

/** The event's score entries by delivery state. */
export interface ScoreBacklog {
  readonly pending: number
  readonly delivered: number
  readonly warning: number
  readonly dead: number
  /** Capture time of the oldest entry still waiting. */
  readonly oldestPendingAt: number | null
}

/** One race on a pool's timeline, from its finishes: its start (a touch less its time) to its last touch. */
export interface RaceSpan {
  /** The event and heat of its start, as its finishes carry them; null when the board showed none. */
  readonly event: number | null
  readonly heat: number | null
  readonly from: number
  readonly to: number
  /** Its finishes on the timeline (the clicks the `finish` rule made). */
  readonly finishes: number
}

export interface Timeline {
  readonly place: { readonly key: string; readonly name: string }
  readonly sport: string | null
  readonly shape: ScoreShape
  /** The event the items belong to; null when none of them names one. */
  readonly eventKey: string | null
  readonly teams: { readonly home: string; readonly away: string }
  /** The time axis; from === to when there is nothing to show. */
  readonly from: number
  readonly to: number
  readonly segments: ReadonlyArray<ScoreSegment>
  readonly periods: ReadonlyArray<PeriodSpan>
  readonly tieBreaks: ReadonlyArray<TieBreakSpan>
  readonly highlights: ReadonlyArray<HighlightMark>
  readonly backlog: ScoreBacklog
  /** The latest score per team as the header shows it, e.g. "6 6 · 40" or "41". */
  readonly scoreText: { readonly home: string; readonly away: string } | null
  /** The largest value the y axis must reach. */
  readonly yMax: number
  /**
   * A pool with no score entry in the event (a race sport, team scores not configured): its races,
   * the finishes drawn by place along the time axis, no score rows or axis. Null: the score chart
   * (any other sport, or a dual meet whose team scores are sent).
   */
  readonly races: ReadonlyArray<RaceSpan> | null
}
