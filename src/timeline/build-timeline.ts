import type { FollowUp } from "../domain/follow-up.ts"
import type { OutboxItem } from "../delivery/outbox.ts"
import { ruleFamily } from "../domain/rule-catalog.ts"
import { currentEvent } from "./current-event.ts"
import { raceSpans } from "./finish-races.ts"
import { highlightMarks } from "./highlight-marks.ts"
import { scoreBacklog } from "./score-backlog.ts"
import { scoreSeries, scoreShape } from "./score-series.ts"
import type { Timeline } from "./timeline-model.ts"

export interface TimelineInput {
  readonly place: { readonly key: string; readonly name: string | null }
  readonly sport: string | null
  /** The place's live event as the bridge knows it: its team names are used when it is the timeline's event. */
  readonly event: { readonly key: string | null; readonly homeTeam: string | null; readonly awayTeam: string | null } | null
  /** The place's recent outbox items, in any order (`OutboxItems.recent` gives them newest first). */
  readonly recent: ReadonlyArray<OutboxItem>
  /** The place's follow-ups (`ClipFollowUps.followUpsOf`): what became of the clips of its accepted clicks. */
  readonly followUps: ReadonlyArray<FollowUp>
}

// A match that has just started would otherwise stretch its first seconds across the width.
const shortestSpanMs = 60_000

/** The place's current event as a timeline: pure, so the page, the SVG and tests agree. */
export const buildTimeline = (input: TimelineInput): Timeline => {
  const { eventKey, items } = currentEvent(input.recent)
  const scores = items.filter((item) => item.kind === "score")
  const shape = scoreShape(input.sport, scores)
  const series = scoreSeries(shape, input.sport, scores)
  const highlights = highlightMarks(items.filter((item) => item.kind === "click"), input.recent.filter((item) => item.kind === "undo"), input.followUps)
  // A pool's finishes say when each race started: its band begins there, on the axis too.
  const races = input.sport !== null && ruleFamily(input.sport) === "race" && scores.length === 0 ? raceSpans(highlights) : null
  const times = [...series.segments.flatMap((s) => s.points.map((p) => p.at)), ...highlights.map((h) => h.at), ...(races ?? []).map((r) => r.from)]
  const first = times.length === 0 ? 0 : Math.min(...times)
  const last = times.length === 0 ? 0 : Math.max(...times)
  const span = Math.max(last - first, shortestSpanMs)
  const from = times.length === 0 ? 0 : first - span * 0.03
  const to = times.length === 0 ? 0 : first + span * 1.03
  // The period in play lasts until now, as far as the picture goes.
  const inPlay = series.periods.at(-1)
  const periods = series.periods.map((p) => (p === inPlay ? { ...p, to } : p))
  const tieBreaks = series.tieBreaks.map((t) => (t.set === inPlay?.period && t.to === inPlay.to ? { ...t, to } : t))
  const sameEvent = input.event !== null && input.event.key !== null && input.event.key === eventKey
  return {
    place: { key: input.place.key, name: input.place.name ?? input.place.key },
    sport: input.sport,
    shape,
    eventKey,
    teams: {
      home: (sameEvent ? input.event!.homeTeam : null) ?? "Home",
      away: (sameEvent ? input.event!.awayTeam : null) ?? "Away"
    },
    from,
    to,
    segments: series.segments,
    periods,
    tieBreaks,
    highlights: highlights.sort((a, b) => a.at - b.at || a.itemId - b.itemId),
    backlog: scoreBacklog(scores),
    scoreText: series.scoreText,
    yMax: series.yMax,
    races
  }
}
