import type { FollowUp } from "../domain/follow-up.ts"
import type { LaneCount, OutboxItem } from "../delivery/outbox.ts"
import type { KnownEvent } from "../events/active-events.ts"
import { clipProblemOf, lastClickOf } from "./clip-status.ts"
import type { LinkRecords } from "./link-records.ts"
import { buttonView, scoreboardView, type SourceView, type Thresholds } from "./liveness.ts"
import type { PlaceTracker } from "./place-tracker.ts"
import { type FinishClick, raceStatus } from "./race-status.ts"
import type { PastBacklog } from "./past-backlog.ts"
import { readingText } from "./reading-text.ts"
import type { PlaceStatus } from "./status-snapshot.ts"
import type { StatusPlace } from "./status-options.ts"

/** What one place's card is drawn from, read once per snapshot. */
export interface PlaceStatusInput {
  readonly place: StatusPlace
  readonly tracker: PlaceTracker
  readonly links: LinkRecords
  readonly thresholds: Thresholds
  readonly now: number
  readonly counts: ReadonlyArray<LaneCount>
  readonly heads: ReadonlyArray<OutboxItem>
  readonly known: KnownEvent | undefined
  /** Why delivery is paused (a 401), or null. */
  readonly suspended: string | null
  /** Undefined when clicks are not followed. */
  readonly followUps: ReadonlyArray<FollowUp> | undefined
  readonly problemAfterClicks: number
  /** What the outbox says of the clicks of the finishes the card shows, by click item. */
  readonly finishClicks: ReadonlyMap<number, FinishClick>
  /** Its past events' entries waiting (see past-backlog.ts). */
  readonly pastBacklog: PastBacklog
}

type ButtonLine = { readonly source: string } & SourceView

/** The place's input: its scoreboard's liveness, or with buttons only, the first button source that is not live. */
const sourceOf = (input: PlaceStatusInput, buttons: ReadonlyArray<ButtonLine>): SourceView => {
  const { tracker, place } = input
  const board = place.scoreboard
  if (board === undefined) return buttons.find((b) => b.badge !== "LIVE") ?? { badge: "LIVE", detail: "buttons only, all connected" }
  return scoreboardView({
    link: board.link,
    target: board.target,
    record: board.link === "mqtt" ? input.links.mqtt : tracker.link,
    lastBytesAt: tracker.lastBytesAt,
    lastReadingAt: tracker.lastReading?.receivedAt ?? null,
    stats: tracker.stats
  }, input.thresholds, input.now)
}

/** The place's health reasons, each naming it; none: it is live. */
const reasonsOf = (
  input: PlaceStatusInput,
  source: SourceView,
  buttons: ReadonlyArray<ButtonLine>,
  oldest: OutboxItem | undefined,
  clipProblem: { readonly text: string } | null
) => {
  const { place, now } = input
  const board = place.scoreboard
  const reasons: Array<string> = []
  if (source.badge !== "LIVE") reasons.push(`${place.key}: ${source.badge}: ${board === undefined ? "" : `${board.target}: `}${source.detail}`)
  if (board !== undefined) for (const b of buttons) if (b.badge !== "LIVE") reasons.push(`${place.key}: ${b.detail}`)
  if (input.suspended !== null) reasons.push(`${place.key}: delivery paused: ${input.suspended}`)
  if (oldest !== undefined && now - oldest.createdAt > input.thresholds.stuckAfterMs) {
    const waited = Math.round((now - oldest.createdAt) / 1000)
    reasons.push(`${place.key}: delivery stuck: ${oldest.kind} #${oldest.id} pending for ${waited} s${oldest.lastError === null ? "" : ` (last error: ${oldest.lastError})`}`)
  }
  // A camera is not a scoreboard: the badge stays, the court is named in the health reasons.
  if (clipProblem !== null) reasons.push(`${place.key}: ${clipProblem.text}`)
  return reasons
}

/** What waits in the outbox for the place: pending items by kind, and the oldest of them. */
const queueOf = (input: PlaceStatusInput, oldest: OutboxItem | undefined): PlaceStatus["queue"] => {
  const pendingOf = (kind: string) =>
    input.counts.filter((c) => c.place === input.place.key && c.kind === kind && c.state === "pending").reduce((n, c) => n + c.count, 0)
  return {
    score: pendingOf("score"),
    click: pendingOf("click"),
    undo: pendingOf("undo"),
    oldestPendingAt: oldest?.createdAt ?? null,
    oldestPendingError: oldest?.lastError ?? null,
    pastEvents: input.pastBacklog
  }
}

const eventOf = (known: KnownEvent | undefined): PlaceStatus["event"] =>
  known === undefined
    ? null
    : { key: known.eventKey, homeTeam: known.homeTeam ?? null, awayTeam: known.awayTeam ?? null, learnedAt: known.learnedAt }

/** One place's card on the page and in /status.json: live or why not, and what it last saw and sent. */
export const placeStatus = (input: PlaceStatusInput): PlaceStatus => {
  const { place, tracker, followUps } = input
  const board = place.scoreboard
  const buttons = place.buttonSources.map((source) => ({ source, ...buttonView(source, input.links.buttonRecord(source), input.now) }))
  const source = sourceOf(input, buttons)
  const oldest = input.heads.filter((h) => h.place === place.key).sort((a, b) => a.createdAt - b.createdAt)[0]
  const clipProblem = followUps === undefined ? null : clipProblemOf(followUps, input.problemAfterClicks, input.now)
  const reasons = reasonsOf(input, source, buttons, oldest, clipProblem)
  return {
    key: place.key,
    name: place.name ?? null,
    sport: place.sport ?? null,
    live: reasons.length === 0,
    reasons,
    // Only the view's two fields: a button line's own `source` is not the card's.
    source: { link: board?.link ?? "buttons only", target: board?.target ?? place.buttonSources.join(", "), badge: source.badge, detail: source.detail },
    lastBytesAt: tracker.lastBytesAt,
    lastReadingAt: tracker.lastReading?.receivedAt ?? null,
    lastReading: tracker.lastReading,
    lastReadingText: tracker.lastReading === null ? null : readingText(tracker.lastReading),
    race: raceStatus(tracker.lastReading, tracker.finishes.all, input.finishClicks),
    decoder: tracker.stats,
    lastEntry: tracker.lastEntry,
    lastPress: tracker.lastPress,
    lastClick: followUps === undefined ? null : lastClickOf(followUps),
    clipProblem,
    queue: queueOf(input, oldest),
    event: eventOf(input.known),
    buttons,
    errors: [...tracker.errors].reverse()
  }
}
