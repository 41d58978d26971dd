import type { DecoderStats } from "../../adapters/decoder.ts"
import type { LinkKind } from "../config/scoreboard-link.ts"
import type { ClipOutcome } from "../domain/follow-up.ts"
import type { OutboxDiskStats } from "../delivery/slow-disk.ts"
import type { Reading } from "../domain/reading.ts"
import type { Badge } from "./liveness.ts"
import type { ErrorNote, LastEntry, LastPress } from "./place-tracker.ts"
import type { RollbackNotice } from "./rollback-notice.ts"
import type { VenueClock } from "./venue-clock.ts"

/** The place's newest followed click (see src/domain/follow-up.ts). */
export interface LastClick {
  /** The click's outbox item. */
  readonly itemId: number
  readonly pressedAt: number
  /** Null while it is being followed. */
  readonly outcome: ClipOutcome | null
  /** In words, e.g. "clip ready in 9 s, 2 angles" (clipOutcomeText). */
  readonly text: string
  /** The first clip's links, when the outcome is clip-ready. */
  readonly videoURL: string | null
  readonly thumbnailURL: string | null
}

/** The place's newest settled clicks made no clip, `clips.problemAfterClicks` or more in a row. */
export interface ClipProblem {
  /** No-clip clicks since the last clip (deleted and unchecked ones not counted). */
  readonly clicks: number
  /** When the first of them was pressed. */
  readonly since: number
  /** E.g. "3 clicks without a clip since 14:02:31: is the camera recording?" (the venue's clock). */
  readonly text: string
}

/** One place as `/status.json` serves it and the page draws it. Times are ms since epoch. */
export interface PlaceStatus {
  readonly key: string
  readonly name: string | null
  readonly sport: string | null
  /** False when a health reason names this place. */
  readonly live: boolean
  readonly reasons: ReadonlyArray<string>
  readonly source: {
    readonly link: LinkKind | "buttons only"
    readonly target: string
    readonly badge: Badge
    readonly detail: string
  }
  readonly lastBytesAt: number | null
  readonly lastReadingAt: number | null
  readonly lastReading: Reading | null
  /** The last reading in words, e.g. "25–23 · set 3". */
  readonly lastReadingText: string | null
  readonly decoder: DecoderStats
  readonly lastEntry: LastEntry | null
  readonly lastPress: LastPress | null
  /** Null when clicks are not followed (`clips.followUp: false`) or none was yet. */
  readonly lastClick: LastClick | null
  /** Null when fine or clicks are not followed; its text is also a health reason. */
  readonly clipProblem: ClipProblem | null
  readonly queue: {
    readonly score: number
    readonly click: number
    readonly undo: number
    /** Capture time of the oldest pending item. */
    readonly oldestPendingAt: number | null
    readonly oldestPendingError: string | null
  }
  /** undefined: not known yet; null: the service said none is running. */
  readonly event: { readonly key: string | null; readonly homeTeam: string | null; readonly awayTeam: string | null; readonly learnedAt: number } | null
  readonly buttons: ReadonlyArray<{ readonly source: string; readonly badge: Badge; readonly detail: string }>
  readonly errors: ReadonlyArray<ErrorNote>
}

export interface LinkStatus {
  /** scoreboard:<place>, button:<source> or mqtt. */
  readonly name: string
  readonly up: boolean
  readonly state: string
  readonly target: string
  readonly detail: string | null
  readonly since: number
  readonly connects: number
}

export interface TokenStatus {
  readonly sentLastMinute: number
  readonly limitPerMinute: number
  readonly waiting: { readonly click: number; readonly score: number }
  readonly backoffUntil: number | null
  readonly suspended: string | null
}

export interface StatusSnapshot {
  readonly generatedAt: number
  readonly startedAt: number
  /** The zone the page shows times in (the timeline's too): the venue's, not the viewer's. */
  readonly venueClock: VenueClock
  readonly healthy: boolean
  /** One line per problem, each naming its place or link; empty when healthy. */
  readonly reasons: ReadonlyArray<string>
  readonly places: ReadonlyArray<PlaceStatus>
  readonly token: TokenStatus
  readonly links: ReadonlyArray<LinkStatus>
  /** Service clock minus ours, from the last answer's Date header (±1 s resolution). */
  readonly clockSkewMs: number | null
  /** The outbox's fsyncs and slow commits since it opened (running totals, for /metrics). */
  readonly outboxDisk: OutboxDiskStats
  readonly thresholds: { readonly noDataAfterMs: number; readonly stuckAfterMs: number }
  /** Per place, a tag that changes whenever its timeline can: the page re-requests the picture only then. */
  readonly timelines: Readonly<Record<string, string>>
  /** The upgrade guard went back to the previous version (its record in the package's directory); null: no record. */
  readonly rollback: RollbackNotice | null
}

