import type { DecoderStats } from "../../adapters/decoder.ts"
import type { LinkKind } from "../config/scoreboard-link.ts"
import type { ClipOutcome } from "../domain/follow-up.ts"
import type { OutboxDiskStats } from "../delivery/slow-disk.ts"
import type { Reading } from "../domain/reading.ts"
import type { Answer } from "./item-answer.ts"
import type { Badge } from "./liveness.ts"
import type { ErrorNote, LastEntry, LastPress } from "./place-tracker.ts"
import type { RollbackNotice } from "./rollback-notice.ts"
import type { VenueClock } from "./venue-clock.ts"
import type { PastBacklog } from "./past-backlog.ts"

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

/** A swimmer's finish on the card: lane, place and time, the touch, and what became of its click. */
export interface FinishStatus {
  readonly lane: number
  readonly place: number
  /** As the board showed it: "28.91", "1:02.34". */
  readonly time: string
  readonly timeMs: number
  /** The event and heat of its race (the board's at the start); null when the board showed none. */
  readonly event: number | null
  readonly heat: number | null
  readonly swimmer: string | null
  /** The touch: the race's start plus the time. */
  readonly at: number
  /** Which race on the card: 0 the newest, 1 the one before. */
  readonly race: number
  /** The click a `finish` rule made of it (its outbox item); null when none was made. */
  readonly clickItemId: number | null
  /** The service's answer to that click, as the outbox keeps it; null without a click. */
  readonly answer: Answer | null
  /** Its clip, once the service accepted the click and clicks are followed; null otherwise. */
  readonly clip: LastClick | null
}

/** A timing console's race (swimming), from the place's last reading and the race tracker's finishes. */
export interface RaceStatus {
  /** The event and heat the board shows now (the operator may advance them before the next start). */
  readonly event: number | null
  readonly heat: number | null
  /** The running clock as shown ("1:02.3"); null while its module is blank. */
  readonly clock: string | null
  /**
   * `waiting`: the clock shows its reset (before the start, or after the race); `running`: it counts; `blank`: not shown;
   * `unread`: no reading of the board since the bridge started (the finishes are the outbox's, from before).
   */
  readonly phase: "waiting" | "running" | "blank" | "unread"
  /** The console's blank mode: lanes sent blank while the clock runs on. */
  readonly blanked: boolean
  /** The last finishes, at most 8: the newest race first, each race by place, as a results list reads. */
  readonly finishes: ReadonlyArray<FinishStatus>
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
  /** The last reading in words, e.g. "25–23 · set 3", or "Event 12 · Heat 3 · 1:02.3" for a race. */
  readonly lastReadingText: string | null
  /** Null unless the last reading carries a race (a timing console), or, before the first reading, finishes were made before a restart. */
  readonly race: RaceStatus | null
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
    /** Of the pending scores, those of past events (an outage's backlog, sent after everything live) and when they will be through. */
    readonly pastEvents: PastBacklog
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
  readonly waiting: { readonly click: number; readonly score: number; readonly backlog: number }
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

